package io.lineup.rooms;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/** The JSON of the rooms' stored records (settings, grants, keys, pre-queue payloads). */
final class StoredJson {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private StoredJson() {}

  /** A new empty object. */
  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /**
   * A stored record's JSON object.
   *
   * @throws IllegalStateException when the text is not a JSON object
   */
  static ObjectNode read(String text) {
    try {
      if (MAPPER.readTree(text) instanceof ObjectNode object) {
        return object;
      }
    } catch (IOException e) {
      throw new IllegalStateException("a stored room record is not JSON", e);
    }
    throw new IllegalStateException("a stored room record is not a JSON object");
  }
}
