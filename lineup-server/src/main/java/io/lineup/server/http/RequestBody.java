package io.lineup.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads a request body as JSON, within the body limit. */
public final class RequestBody {
  /** Body limit when the payload limit is small: 16 MiB (room for a bulk publish). */
  public static final int MIN_BODY_LIMIT = 16 * 1024 * 1024;

  private RequestBody() {}

  /**
   * The body limit for a payload limit: at least {@link #MIN_BODY_LIMIT}, and room for one payload
   * sent as base64 or escaped JSON text (twice its size) plus 64 KiB of fields.
   */
  public static int limitFor(int maxPayloadBytes) {
    return (int)
        Math.min(Integer.MAX_VALUE - 8, Math.max(MIN_BODY_LIMIT, 2L * maxPayloadBytes + 65_536));
  }

  /**
   * Reads and parses the body.
   *
   * @param required whether an empty body is an error (else it reads as {@code {}})
   * @throws ApiException 413 {@code body_too_large} over {@code maxBytes}; 400 {@code invalid_json}
   *     when it is not exactly one JSON value
   */
  public static JsonNode read(Context ctx, int maxBytes, boolean required) {
    byte[] bytes = bytes(ctx, maxBytes);
    if (bytes.length == 0 || isBlank(bytes)) {
      if (required) {
        throw new ApiException(ErrorCode.INVALID_JSON, null, "a JSON body is needed");
      }
      return Json.object();
    }
    try {
      JsonNode node = Json.parse(bytes);
      if (node == null || node.isMissingNode()) {
        throw new ApiException(ErrorCode.INVALID_JSON, null, "a JSON body is needed");
      }
      return node;
    } catch (StreamConstraintsException e) {
      throw new ApiException(
          ErrorCode.INVALID_JSON, null, "the body is over a JSON limit: " + e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      throw new ApiException(
          ErrorCode.INVALID_JSON,
          null,
          "the body is not valid JSON: " + e.getOriginalMessage() + location(e));
    } catch (IOException e) {
      throw new ApiException(ErrorCode.INVALID_JSON, null, "the body could not be read");
    }
  }

  private static String location(JsonProcessingException e) {
    var where = e.getLocation();
    return where == null
        ? ""
        : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")";
  }

  private static byte[] bytes(Context ctx, int maxBytes) {
    long declared = ctx.req().getContentLengthLong();
    if (declared > maxBytes) {
      throw tooLarge(maxBytes);
    }
    try (InputStream in = ctx.req().getInputStream()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(declared > 0 ? (int) declared : 1024);
      byte[] buffer = new byte[16 * 1024];
      long total = 0;
      int n;
      while ((n = in.read(buffer)) != -1) {
        total += n;
        if (total > maxBytes) {
          throw tooLarge(maxBytes);
        }
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw new ApiException(
          ErrorCode.INVALID_JSON, null, "the body could not be read: " + e.getMessage());
    }
  }

  private static ApiException tooLarge(int maxBytes) {
    return new ApiException(
        ErrorCode.BODY_TOO_LARGE, null, "the body is over the limit of " + maxBytes + " bytes");
  }

  private static boolean isBlank(byte[] bytes) {
    for (byte b : bytes) {
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return false;
      }
    }
    return true;
  }
}
