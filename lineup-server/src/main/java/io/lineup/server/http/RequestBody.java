package io.lineup.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import io.lineup.api.ErrorCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.regex.Pattern;

/** Reads a request body as JSON, within the body limit. */
public final class RequestBody {
  /** A source description in a parser message, with the line and column it carries. */
  private static final Pattern SOURCE =
      Pattern.compile("\\[Source: [^\\]]*?line: (\\d+), column: (\\d+)\\]");

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
   *     when it is not well-formed UTF-8 or not exactly one JSON value
   */
  public static JsonNode read(Context ctx, int maxBytes, boolean required) {
    return read(ctx, maxBytes, required, null);
  }

  /**
   * Reads and parses the body, keeping one field's values as compact text ({@link #parse(byte[],
   * boolean, String)}).
   *
   * @param required whether an empty body is an error (else it reads as {@code {}})
   * @param compactField the field kept as a {@link CompactJson}; null to keep none
   * @throws ApiException 413 {@code body_too_large} over {@code maxBytes}; 400 {@code invalid_json}
   *     when it is not well-formed UTF-8 or not exactly one JSON value
   */
  public static JsonNode read(Context ctx, int maxBytes, boolean required, String compactField) {
    try (InputStream in = ctx.req().getInputStream()) {
      return parse(bytes(ctx.req().getContentLengthLong(), in, maxBytes), required, compactField);
    } catch (IOException e) {
      throw unreadable(e);
    }
  }

  /**
   * Parses a body already read (with {@link #bytes}).
   *
   * @param required whether an empty body is an error (else it reads as {@code {}})
   * @throws ApiException 400 {@code invalid_json} when it is not well-formed UTF-8 or not exactly
   *     one JSON value
   */
  public static JsonNode parse(byte[] bytes, boolean required) {
    return parse(bytes, required, null);
  }

  /**
   * Parses a body already read (with {@link #bytes}), keeping one field's values as compact text
   * ({@link CompactFieldParser}).
   *
   * @param required whether an empty body is an error (else it reads as {@code {}})
   * @param compactField the field of the body object (or of each object of a body array) whose
   *     value is kept as a {@link CompactJson}; null to keep none
   * @throws ApiException 400 {@code invalid_json} when it is not well-formed UTF-8 or not exactly
   *     one JSON value
   */
  public static JsonNode parse(byte[] bytes, boolean required, String compactField) {
    if (bytes.length == 0 || isBlank(bytes)) {
      if (required) {
        throw new ApiException(ErrorCode.INVALID_JSON, null, "a JSON body is needed");
      }
      return Json.object();
    }
    // The JSON parser decodes overlong forms (0xC0 0xAF for '/') without complaint; a filter that
    // looked at the bytes would then see something else than what is stored.
    int invalid = firstInvalidUtf8(bytes);
    if (invalid >= 0) {
      throw new ApiException(
          ErrorCode.INVALID_JSON,
          null,
          "the body is not well-formed UTF-8 (byte offset " + invalid + ")");
    }
    try {
      JsonNode node =
          compactField == null ? Json.parse(bytes) : CompactFieldParser.parse(bytes, compactField);
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
          "the body is not valid JSON: " + withoutSource(e.getOriginalMessage()) + location(e));
    } catch (IOException e) {
      throw new ApiException(ErrorCode.INVALID_JSON, null, "the body could not be read");
    }
  }

  /**
   * The parser's message without its source descriptions ({@code [Source: REDACTED (...); line: 1,
   * column: 1]}), which say how the parser is configured, not what is wrong with the body.
   */
  static String withoutSource(String message) {
    if (message == null) {
      return "";
    }
    return SOURCE.matcher(message).replaceAll("line $1, column $2");
  }

  /**
   * The offset of the first byte that is not well-formed UTF-8 (RFC 3629), or -1 when every byte
   * is. Overlong forms, UTF-16 surrogates and code points above U+10FFFF are not well-formed.
   */
  static int firstInvalidUtf8(byte[] bytes) {
    int i = 0;
    while (i < bytes.length) {
      int lead = bytes[i] & 0xff;
      if (lead < 0x80) {
        i++;
        continue;
      }
      int length;
      int secondMin = 0x80;
      int secondMax = 0xbf;
      if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
      } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        if (lead == 0xe0) {
          secondMin = 0xa0; // below: an overlong form of U+0000..U+07FF
        } else if (lead == 0xed) {
          secondMax = 0x9f; // above: a UTF-16 surrogate
        }
      } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        if (lead == 0xf0) {
          secondMin = 0x90; // below: an overlong form of U+0000..U+FFFF
        } else if (lead == 0xf4) {
          secondMax = 0x8f; // above: beyond U+10FFFF
        }
      } else {
        return i; // a continuation byte without a lead, 0xC0, 0xC1 (always overlong) or 0xF5..
      }
      if (i + length > bytes.length) {
        return i;
      }
      int second = bytes[i + 1] & 0xff;
      if (second < secondMin || second > secondMax) {
        return i;
      }
      for (int k = 2; k < length; k++) {
        int next = bytes[i + k] & 0xff;
        if (next < 0x80 || next > 0xbf) {
          return i;
        }
      }
      i += length;
    }
    return -1;
  }

  private static String location(JsonProcessingException e) {
    var where = e.getLocation();
    return where == null
        ? ""
        : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")";
  }

  /**
   * Reads a whole body, within the limit.
   *
   * @param declared the Content-Length, or -1 when the body is chunked
   * @param in the body; not closed here
   * @param maxBytes the body limit
   * @throws ApiException 413 {@code body_too_large} over {@code maxBytes}
   * @throws IOException when the body cannot be read (the client went away)
   */
  public static byte[] bytes(long declared, InputStream in, int maxBytes) throws IOException {
    if (declared > maxBytes) {
      throw tooLarge(maxBytes);
    }
    if (declared >= 0) {
      // The usual case: read exactly the declared length into an array of its size, rather
      // than through a fresh 16 KiB buffer and a growing copy for every request (a publish
      // body is a few hundred bytes).
      return in.readNBytes((int) declared);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
    byte[] buffer = new byte[8 * 1024];
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
  }

  /** 400 {@code invalid_json}: the body could not be read. */
  public static ApiException unreadable(IOException e) {
    return new ApiException(
        ErrorCode.INVALID_JSON, null, "the body could not be read: " + e.getMessage());
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
