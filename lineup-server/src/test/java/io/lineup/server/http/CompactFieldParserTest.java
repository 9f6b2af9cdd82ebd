package io.lineup.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A publish body's payload is kept as compact text while the body is read, and that text is the one
 * writing the parsed tree gives, so stored payloads do not depend on how the body was read.
 */
class CompactFieldParserTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "1",
        "-0",
        "12345678901234567890123456789",
        "1.50",
        "100.0",
        "-0.0",
        "0.000",
        "1e2",
        "10.10e3",
        "1E-7",
        "5e-324",
        "1e400",
        "3.0e0",
        "-2.5E+10",
        "0.1",
        "true",
        "false",
        "\"plain\"",
        "\"esc\\\"aped\\\\ \\n\\t\\u0001 \\u00e9 \\ud83d\\ude00 caf\u00e9 \\/\"",
        "[]",
        "{}",
        "[1, [2, [3, {\"a\": [4.0, null]}]], \"x\"]",
        "{ \"order\" : 42 , \"items\" : [ {\"sku\": \"A-1\", \"qty\": 2.000}, {} ], \"note\": null }",
        "{\"payload\": {\"payload\": 1}}"
      })
  void aKeptPayloadIsTheTextTheParsedTreeWritesByteForByte(String payload) throws IOException {
    byte[] body =
        ("{\"priority\": 5, \"payload\": " + payload + ", \"ttl_ms\": 1000}")
            .getBytes(StandardCharsets.UTF_8);

    JsonNode kept = CompactFieldParser.parse(body, "payload");
    JsonNode tree = Json.parse(body);

    assertThat(kept.get("payload")).isInstanceOf(POJONode.class);
    assertThat(text(CompactJson.bytesOf(kept.get("payload"))))
        .isEqualTo(text(Json.write(tree.get("payload"))));
    assertThat(kept.get("priority")).isEqualTo(tree.get("priority"));
    assertThat(kept.get("ttl_ms")).isEqualTo(tree.get("ttl_ms"));
  }

  @Test
  void eachObjectOfAnArrayKeepsItsPayloadAndOtherItemsAreReadAsTheTreeReadsThem()
      throws IOException {
    byte[] body =
        "[{\"payload\": 1.10}, {\"payload\": [\"a\"], \"id\": \"j-2\"}, 7, {\"payload\": null}]"
            .getBytes(StandardCharsets.UTF_8);

    JsonNode kept = CompactFieldParser.parse(body, "payload");

    assertThat(kept.isArray()).isTrue();
    assertThat(kept.size()).isEqualTo(4);
    assertThat(text(CompactJson.bytesOf(kept.get(0).get("payload")))).isEqualTo("1.1");
    assertThat(text(CompactJson.bytesOf(kept.get(1).get("payload")))).isEqualTo("[\"a\"]");
    assertThat(kept.get(1).get("id").asText()).isEqualTo("j-2");
    assertThat(kept.get(2).asInt()).isEqualTo(7);
    assertThat(kept.get(3).get("payload").isNull()).isTrue();
  }

  @Test
  void aFieldOtherThanTheKeptOneAndAScalarDocumentAreTheTreesOwnNodes() throws IOException {
    byte[] body = "{\"options\": {\"payload\": 2}}".getBytes(StandardCharsets.UTF_8);

    JsonNode kept = CompactFieldParser.parse(body, "payload");

    assertThat(kept).isEqualTo(Json.parse(body));
    assertThat(CompactFieldParser.parse("\"text\"".getBytes(StandardCharsets.UTF_8), "payload"))
        .isEqualTo(Json.parse("\"text\"".getBytes(StandardCharsets.UTF_8)));
    assertThat(CompactFieldParser.parse("   ".getBytes(StandardCharsets.UTF_8), "payload"))
        .isNull();
  }

  @Test
  void whatTheTreeRefusesIsRefusedToo() {
    List<String> refused =
        List.of(
            "{\"payload\": 1} 2",
            "{\"payload\": {\"a\": 1}} {}",
            "{\"payload\": [1, 2",
            "{\"payload\": {\"a\": 1, \"a\": 2}}",
            "{\"payload\": 1, \"payload\": 2}",
            "[{\"payload\": 1}, ",
            "{\"payload\": tru}",
            "{\"payload\": 01}");
    for (String body : refused) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      assertThatThrownBy(() -> Json.parse(bytes)).as(body).isInstanceOf(IOException.class);
      assertThatThrownBy(() -> CompactFieldParser.parse(bytes, "payload"))
          .as(body)
          .isInstanceOf(JsonProcessingException.class);
    }
  }

  @Test
  void aPayloadNestedDeeperThanTheLimitIsRefusedAsALimit() {
    String deep =
        "{\"payload\": "
            + "[".repeat(Json.MAX_NESTING_DEPTH + 1)
            + "]".repeat(Json.MAX_NESTING_DEPTH + 1)
            + "}";

    assertThatThrownBy(
            () -> CompactFieldParser.parse(deep.getBytes(StandardCharsets.UTF_8), "payload"))
        .isInstanceOf(StreamConstraintsException.class);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
