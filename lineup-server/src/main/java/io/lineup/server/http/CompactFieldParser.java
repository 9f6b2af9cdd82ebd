package io.lineup.server.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Parses a document into a tree as {@link Json#parse} does, except for one named field of the top
 * object (or of each object of a top array): its value is written to compact JSON text as it is
 * read, and the tree holds a {@link CompactJson} for it.
 *
 * <p>Why: a publish body's payload is stored as compact JSON text. Built as a tree and written
 * back, its nodes were made only to be taken apart again, about a tenth of the server's CPU per
 * HTTP publish. The text is what writing the tree gives, byte for byte: integers as their digits,
 * decimals read exactly and written without trailing zeros (the tree's {@code DecimalNode}), text
 * escaped by the same generator. The parser is the same too, so duplicate keys, nesting depth and
 * number length are refused as before.
 */
public final class CompactFieldParser {
  /**
   * Reads one value at the parser's current token; the check for tokens after the whole document is
   * made here, at its end, not after each value.
   */
  private static final ObjectReader VALUE =
      Json.MAPPER.readerFor(JsonNode.class).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private static final JsonNodeFactory NODES = Json.MAPPER.getNodeFactory();

  private CompactFieldParser() {}

  /**
   * Parses a whole document.
   *
   * @param field the field whose values are kept as compact text
   * @return the tree, or null for a document without a value
   * @throws IOException when the bytes are not one JSON value, or break a limit of {@link Json}
   */
  public static JsonNode parse(byte[] bytes, String field) throws IOException {
    JsonFactory factory = Json.MAPPER.getFactory();
    try (JsonParser parser = factory.createParser(bytes)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return null;
      }
      JsonNode root;
      if (first == JsonToken.START_OBJECT) {
        root = object(parser, field, factory);
      } else if (first == JsonToken.START_ARRAY) {
        ArrayNode array = NODES.arrayNode();
        JsonToken next;
        while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
          if (next == null) {
            throw new JsonParseException(parser, "Unexpected end-of-input within the array");
          }
          array.add(
              next == JsonToken.START_OBJECT ? object(parser, field, factory) : value(parser));
        }
        root = array;
      } else {
        root = value(parser);
      }
      JsonToken trailing = parser.nextToken();
      if (trailing != null) {
        throw new JsonParseException(
            parser, "Trailing token (of type " + trailing + ") found after value");
      }
      return root;
    }
  }

  /** The object starting at the current token, with {@code field} kept as compact text. */
  private static ObjectNode object(JsonParser parser, String field, JsonFactory factory)
      throws IOException {
    ObjectNode node = NODES.objectNode();
    String name;
    while ((name = parser.nextFieldName()) != null) {
      JsonToken token = parser.nextToken();
      if (name.equals(field) && token != JsonToken.VALUE_NULL) {
        node.set(name, new POJONode(new CompactJson(compact(parser, factory))));
      } else {
        node.set(name, value(parser));
      }
    }
    return node;
  }

  private static JsonNode value(JsonParser parser) throws IOException {
    return VALUE.readValue(parser);
  }

  /** The value starting at the current token, as compact JSON text; the parser ends on its end. */
  private static byte[] compact(JsonParser parser, JsonFactory factory) throws IOException {
    ByteArrayBuilder out = new ByteArrayBuilder();
    try (JsonGenerator generator = factory.createGenerator(out)) {
      int depth = 0;
      JsonToken token = parser.currentToken();
      while (true) {
        if (token == JsonToken.VALUE_NUMBER_FLOAT) {
          generator.writeNumber(asTheTreeKeepsIt(parser.getDecimalValue()));
        } else {
          generator.copyCurrentEvent(parser);
        }
        if (token.isStructStart()) {
          depth++;
        } else if (token.isStructEnd()) {
          depth--;
        }
        if (depth == 0) {
          break;
        }
        token = parser.nextToken();
        if (token == null) {
          throw new JsonParseException(parser, "Unexpected end-of-input within the value");
        }
      }
    }
    return out.toByteArray();
  }

  /** A decimal as the tree holds it: exact, without trailing zeros, zero without a sign. */
  static BigDecimal asTheTreeKeepsIt(BigDecimal value) {
    return value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
  }
}
