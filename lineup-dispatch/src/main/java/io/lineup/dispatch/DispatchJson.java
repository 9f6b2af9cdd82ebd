package io.lineup.dispatch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JSON of dispatch's own records in Redis (endpoints, task heads, outcomes, callbacks) and of
 * the callbacks it sends. Numbers are read exactly, as the server reads request bodies, so a
 * target's JSON answer is kept as it was sent.
 */
final class DispatchJson {
  /** Deepest nesting read, as the server reads request bodies. */
  private static final int MAX_NESTING_DEPTH = 256;

  /** Longest number read, in characters, as the server reads request bodies. */
  private static final int MAX_NUMBER_LENGTH = 1000;

  static final ObjectMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(MAX_NESTING_DEPTH)
                          .maxNumberLength(MAX_NUMBER_LENGTH)
                          .build())
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
          .build();

  private DispatchJson() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /**
   * Parses a whole document.
   *
   * @throws IOException when the bytes are not one JSON value
   */
  static JsonNode parse(byte[] bytes) throws IOException {
    return MAPPER.readTree(bytes);
  }

  /** Parses a stored record's text; a record that is not JSON is a broken store. */
  static JsonNode parseStored(String text, String what) {
    try {
      return MAPPER.readTree(text);
    } catch (IOException e) {
      throw new IllegalStateException("A stored " + what + " is not JSON", e);
    }
  }

  static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether the bytes are exactly one JSON value, checked by streaming (no tree is built). */
  static boolean isJson(byte[] bytes) {
    if (bytes == null || bytes.length == 0) {
      return false;
    }
    try (JsonParser parser = MAPPER.getFactory().createParser(bytes)) {
      if (parser.nextToken() == null) {
        return false;
      }
      parser.skipChildren();
      return parser.nextToken() == null;
    } catch (IOException e) {
      return false;
    }
  }
}
