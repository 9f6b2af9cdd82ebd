package io.lineup.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.ErrorCode;
import io.lineup.core.model.QueueSetting;
import io.lineup.core.model.QueueSettings;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The HTTP API's settings JSON, its docs table and its OpenAPI schema follow the engine's {@link
 * QueueSetting} definitions: names and JSON types only, no bounds of their own.
 */
class SettingsJsonTest {
  static final String TABLE_START =
      "<!-- queue settings table: generated from QueueSetting, checked by a test -->";
  static final String TABLE_END = "<!-- end of queue settings table -->";

  @Test
  void everySettingIsWrittenUnderItsJsonNameAndReadBackAsTheSameValue() {
    QueueSettings defaults = QueueSetting.defaults();
    ObjectNode json = SettingsJson.write(defaults);

    assertThat(json.get("ttr_ms").asLong()).isEqualTo(30_000);
    assertThat(json.get("backoff").get("kind").asText()).isEqualTo("exponential");
    assertThat(iterable(json.fieldNames())).containsExactlyElementsOf(SettingsJson.FIELDS);

    Map<QueueSetting, Object> read =
        SettingsJson.read(JsonFields.of(json, "", SettingsJson.FIELDS));
    assertThat(read).hasSize(QueueSetting.values().length);
    assertThat(QueueSettings.change(read, null)).isEqualTo(defaults);
  }

  @Test
  void aValueOfTheWrongJsonTypeIsRefusedNamingItsJsonPath() {
    assertRefused("{\"rate_limit\": \"5\"}", "rate_limit");
    assertRefused("{\"rate_limit\": 1.5}", "rate_limit");
    assertRefused("{\"ttr_ms\": 1e30}", "ttr_ms");
    assertRefused("{\"paused\": 1}", "paused");
    assertRefused("{\"backoff\": {\"jitter\": \"0.1\"}}", "backoff.jitter");
    assertRefused("{\"backoff\": {\"kind\": 5}}", "backoff.kind");
  }

  @Test
  void wholeNumbersWrittenAsDecimalsAreRead() throws IOException {
    JsonNode body =
        Json.parse("{\"rate_limit\": 5.0, \"ttr_ms\": 1e3}".getBytes(StandardCharsets.UTF_8));
    Map<QueueSetting, Object> read =
        SettingsJson.read(JsonFields.of(body, "", SettingsJson.FIELDS));
    assertThat(read)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(QueueSetting.RATE_LIMIT, 5L, QueueSetting.TIME_TO_RUN, 1000L));
  }

  @Test
  void theSettingsTableOfTheServerDocsIsTheOneTheDefinitionsGive() throws IOException {
    String docs = Files.readString(Path.of("..", "docs", "server.md"));
    int from = docs.indexOf(TABLE_START);
    int to = docs.indexOf(TABLE_END);
    assertThat(from).as("the table's start marker in docs/server.md").isNotNegative();
    assertThat(to).as("the table's end marker in docs/server.md").isGreaterThan(from);
    assertThat(docs.substring(from + TABLE_START.length(), to).strip() + "\n")
        .as("the table in docs/server.md; paste this one:%n%s", serverTable())
        .isEqualTo(serverTable());
  }

  @Test
  void theOpenApiSettingsSchemaHasEverySettingWithItsTypeBoundsAndDefault() throws IOException {
    JsonNode settings;
    try (InputStream in =
        SettingsJsonTest.class.getResourceAsStream(SystemHandlers.OPENAPI_RESOURCE)) {
      assertThat(in).isNotNull();
      settings = Json.parse(in.readAllBytes()).at("/components/schemas/Settings");
    }
    assertThat(iterable(settings.get("properties").fieldNames()))
        .containsExactlyElementsOf(SettingsJson.FIELDS);

    for (QueueSetting setting : QueueSetting.values()) {
      JsonNode property =
          setting.group() == null
              ? settings.at("/properties/" + setting.jsonName())
              : settings.at("/properties/" + setting.group() + "/properties/" + setting.jsonName());
      String path = setting.jsonPath();
      assertThat(property.isMissingNode()).as(path).isFalse();
      assertThat(property.path("type").asText()).as(path).isEqualTo(jsonType(setting));
      assertThat(property.path("description").asText()).as(path).isEqualTo(setting.description());
      assertThat(property.path("default").toString())
          .as(path)
          .isEqualTo(Json.MAPPER.valueToTree(setting.defaultValue()).toString());
      switch (setting.type()) {
        case INTEGER, MILLIS, FRACTION -> {
          assertThat(property.path("minimum").asLong()).as(path).isEqualTo(setting.min());
          assertThat(property.path("maximum").asLong()).as(path).isEqualTo(setting.max());
        }
        case CHOICE ->
            assertThat(iterable(property.path("enum").elements()).stream().map(JsonNode::asText))
                .as(path)
                .containsExactlyElementsOf(setting.choices());
        case BOOLEAN -> assertThat(property.has("minimum")).as(path).isFalse();
      }
    }
    for (QueueSetting setting : QueueSetting.values()) {
      if (setting.group() != null) {
        JsonNode group = settings.at("/properties/" + setting.group() + "/properties");
        assertThat(group.size())
            .as("fields of %s", setting.group())
            .isEqualTo(
                (int)
                    java.util.Arrays.stream(QueueSetting.values())
                        .filter(s -> setting.group().equals(s.group()))
                        .count());
      }
    }
  }

  /** The markdown table of every setting, as docs/server.md holds it. */
  static String serverTable() {
    StringBuilder table =
        new StringBuilder(
            "| Field | Type | Range | Default | Meaning |\n" + "|---|---|---|---|---|\n");
    for (QueueSetting s : QueueSetting.values()) {
      String type = s.type() == QueueSetting.Type.MILLIS ? "integer (ms)" : jsonType(s);
      table.append(
          String.join(
                  " | ",
                  "| `" + s.jsonPath() + "`",
                  type,
                  s.rangeText(),
                  s.defaultText(),
                  s.description() + " |")
              + "\n");
    }
    return table.toString();
  }

  private static String jsonType(QueueSetting setting) {
    return switch (setting.type()) {
      case BOOLEAN -> "boolean";
      case INTEGER, MILLIS -> "integer";
      case FRACTION -> "number";
      case CHOICE -> "string";
    };
  }

  private static void assertRefused(String body, String field) {
    assertThatThrownBy(() ->
            SettingsJson.read(
                JsonFields.of(
                    Json.parse(body.getBytes(StandardCharsets.UTF_8)), "", SettingsJson.FIELDS)))
        .as(body)
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_FIELD);
              assertThat(e.field()).isEqualTo(field);
            });
  }

  private static <T> List<T> iterable(Iterator<T> items) {
    List<T> list = new ArrayList<>();
    items.forEachRemaining(list::add);
    return list;
  }
}
