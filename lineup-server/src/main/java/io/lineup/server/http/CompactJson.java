package io.lineup.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;

/**
 * A JSON value already written as compact text, held in a parsed tree in place of the value's nodes
 * (see {@link CompactFieldParser}).
 *
 * @param bytes the value's compact JSON text, UTF-8
 */
public record CompactJson(byte[] bytes) {
  /**
   * The compact JSON text of a value of a parsed tree: the text kept by {@link CompactFieldParser},
   * or the nodes written.
   */
  public static byte[] bytesOf(JsonNode value) {
    if (value instanceof POJONode pojo && pojo.getPojo() instanceof CompactJson kept) {
      return kept.bytes();
    }
    return Json.write(value);
  }
}
