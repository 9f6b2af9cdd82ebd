package io.lineup.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.resource.JobState;
import io.lineup.api.resource.JsonText;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** JSON reading and writing for the client; field names are the server's snake_case. */
final class Json {
  /**
   * Reads the server's answers into the API's resource records: a {@link JsonText} from any JSON
   * value, and fields a newer server added are skipped rather than refused.
   */
  static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .registerModule(
              new SimpleModule("lineup-json-text")
                  .addDeserializer(JsonText.class, new JsonTextReader()));

  private Json() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  /**
   * Parses exactly one JSON value.
   *
   * @throws IllegalArgumentException when the text is not one JSON value
   */
  static JsonNode parse(String text) {
    try {
      JsonNode node = MAPPER.readTree(text);
      if (node == null || node.isMissingNode()) {
        throw new IllegalArgumentException("empty text is not a JSON value");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not one JSON value: " + e.getOriginalMessage(), e);
    }
  }

  /** Whether the bytes are exactly one JSON value in UTF-8. */
  static boolean isJson(byte[] bytes) {
    try {
      JsonNode node = MAPPER.readTree(bytes);
      return node != null && !node.isMissingNode();
    } catch (java.io.IOException e) {
      return false;
    }
  }

  /**
   * Reads any JSON value as its compact text; a JSON {@code null} is {@link JsonText#NULL}, an
   * absent field null.
   */
  private static final class JsonTextReader extends StdDeserializer<JsonText> {
    JsonTextReader() {
      super(JsonText.class);
    }

    @Override
    public JsonText deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      return new JsonText(write(ctxt.readTree(p)));
    }

    @Override
    public JsonText getNullValue(DeserializationContext ctxt) {
      return JsonText.NULL;
    }

    /** An absent field stays null, unlike a JSON null: the two differ on the wire. */
    @Override
    public Object getAbsentValue(DeserializationContext ctxt) {
      return null;
    }
  }

  static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * An answer read into an API resource record.
   *
   * @throws LineupClientException when the answer does not fit the record
   */
  static <T> T read(JsonNode node, Class<T> type) {
    try {
      return MAPPER.treeToValue(node, type);
    } catch (JsonProcessingException e) {
      throw new LineupClientException(
          0,
          null,
          null,
          "unexpected answer for " + type.getSimpleName() + ": " + e.getOriginalMessage(),
          null,
          e);
    }
  }

  /** A job state of the API's text, or null. */
  static JobState state(String text) {
    return text == null ? null : JobState.valueOf(text);
  }

  static String text(JsonNode node, String name) {
    JsonNode value = node.get(name);
    return value == null || value.isNull() ? null : value.asText();
  }

  static int intValue(JsonNode node, String name, int absent) {
    JsonNode value = node.get(name);
    return value == null || value.isNull() ? absent : value.asInt();
  }

  static Instant time(JsonNode node, String name) {
    JsonNode value = node.get(name);
    return value == null || value.isNull() ? null : Instant.ofEpochMilli(value.asLong());
  }

  static List<String> texts(JsonNode node, String name) {
    List<String> list = new ArrayList<>();
    JsonNode value = node.get(name);
    if (value != null && value.isArray()) {
      value.forEach(item -> list.add(item.asText()));
    }
    return List.copyOf(list);
  }
}
