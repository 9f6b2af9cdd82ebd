package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.model.QueueSetting;
import io.lineup.core.model.QueueSettings;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Queue settings in the HTTP API's JSON, following the engine's {@link QueueSetting} definitions:
 * this class only translates names (a group is a nested object) and JSON types. The bounds are
 * checked by the engine, whose {@code InvalidArgumentException} names the engine field and is
 * answered as 400 {@code invalid_field} under the JSON name.
 */
final class SettingsJson {
  /** The field names a settings body takes at its top level, in definition order. */
  static final Set<String> FIELDS = topLevelFields();

  private SettingsJson() {}

  /**
   * The settings a body gives, in the form of their types ({@code Boolean}, {@code Long}, {@code
   * Double}, {@code String}); absent and null fields are left out.
   *
   * @param body the body's fields, taking {@link #FIELDS}
   * @throws io.lineup.server.http.ApiException {@code invalid_field} when a value has the wrong
   *     JSON type, {@code unknown_field} for a name a group's object does not take
   */
  static Map<QueueSetting, Object> read(JsonFields body) {
    Map<QueueSetting, Object> values = new EnumMap<>(QueueSetting.class);
    for (QueueSetting setting : QueueSetting.values()) {
      JsonFields object =
          setting.group() == null
              ? body
              : body.optionalObject(setting.group(), fieldsOf(setting.group()));
      if (object != null) {
        Object value = read(object, setting);
        if (value != null) {
          values.put(setting, value);
        }
      }
    }
    return values;
  }

  /** Settings as JSON: every setting under its JSON name, a group as a nested object. */
  static ObjectNode write(QueueSettings settings) {
    ObjectNode node = Json.object();
    for (QueueSetting setting : QueueSetting.values()) {
      ObjectNode target = node;
      if (setting.group() != null) {
        target =
            node.has(setting.group())
                ? (ObjectNode) node.get(setting.group())
                : node.putObject(setting.group());
      }
      switch (setting.valueIn(settings)) {
        case null -> target.putNull(setting.jsonName());
        case Boolean value -> target.put(setting.jsonName(), value);
        case Long value -> target.put(setting.jsonName(), value);
        case Double value -> target.put(setting.jsonName(), value);
        case String value -> target.put(setting.jsonName(), value);
        default ->
            throw new IllegalStateException(
                setting + " has a value of an unknown type: " + setting.valueIn(settings));
      }
    }
    return node;
  }

  /** The JSON type a setting's type is read as; what it must be is worded by the definition. */
  private static Object read(JsonFields object, QueueSetting setting) {
    String name = setting.jsonName();
    return switch (setting.type()) {
      case BOOLEAN -> object.optionalBoolean(name);
      case INTEGER -> object.optionalWholeNumber(name, "an integer from " + setting.rangeText());
      case MILLIS ->
          object.optionalWholeNumber(
              name, "a whole number of milliseconds from " + setting.rangeText());
      case FRACTION -> object.optionalNumber(name, "a number from " + setting.rangeText());
      // The body's size bounds the text; the engine says which choices there are.
      case CHOICE -> object.optionalText(name, Integer.MAX_VALUE);
    };
  }

  private static Set<String> topLevelFields() {
    Set<String> fields = new LinkedHashSet<>();
    for (QueueSetting setting : QueueSetting.values()) {
      fields.add(setting.group() == null ? setting.jsonName() : setting.group());
    }
    return Collections.unmodifiableSet(fields);
  }

  private static Set<String> fieldsOf(String group) {
    Set<String> fields = new LinkedHashSet<>();
    for (QueueSetting setting : QueueSetting.values()) {
      if (group.equals(setting.group())) {
        fields.add(setting.jsonName());
      }
    }
    return fields;
  }
}
