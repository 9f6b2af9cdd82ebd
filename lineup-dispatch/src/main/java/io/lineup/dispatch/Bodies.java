package io.lineup.dispatch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;

/** Writes a body into a JSON record: as JSON when it is JSON, else as text, else as base64. */
final class Bodies {
  private Bodies() {}

  /**
   * Puts {@code name} (a JSON value), {@code name_text} or {@code name_base64}, cut to {@code max}
   * bytes; a cut body is never read as JSON.
   *
   * @return whether the body was cut
   */
  static boolean put(ObjectNode node, String name, byte[] body, String contentType, int max) {
    boolean cut = body.length > max;
    byte[] kept = cut ? Arrays.copyOf(body, max) : body;
    if (kept.length == 0) {
      node.putNull(name);
      return cut;
    }
    String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    if (!cut && type.contains("json") && DispatchJson.isJson(kept)) {
      try {
        node.set(name, DispatchJson.parse(kept));
        return false;
      } catch (java.io.IOException e) {
        // Fall through to text.
      }
    }
    String text = utf8(kept);
    if (text != null
        && (type.startsWith("text/") || type.contains("json") || type.contains("xml"))) {
      node.put(name + "_text", text);
    } else {
      node.put(name + "_base64", Base64.getEncoder().encodeToString(kept));
    }
    return cut;
  }

  private static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
