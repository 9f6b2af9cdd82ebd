package io.lineup.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.ErrorCode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Typed, checked access to the fields of one JSON object of a request. Every problem is an {@link
 * ApiException} naming the field by its path (e.g. {@code jobs[3].priority}). A field set to {@code
 * null} reads as absent.
 */
public final class JsonFields {
  private final JsonNode node;
  private final String prefix;

  private JsonFields(JsonNode node, String prefix) {
    this.node = node;
    this.prefix = prefix;
  }

  /**
   * The fields of a body or of a nested object.
   *
   * @param node the object
   * @param prefix the path of the object, e.g. {@code jobs[3]} (empty for the body itself)
   * @param allowed the only field names accepted
   * @throws ApiException {@code invalid_json} when the body is not an object, {@code invalid_field}
   *     when a nested value is not one, {@code unknown_field} for any other name
   */
  public static JsonFields of(JsonNode node, String prefix, Set<String> allowed) {
    if (node == null || !node.isObject()) {
      if (prefix.isEmpty()) {
        throw new ApiException(ErrorCode.INVALID_JSON, null, "the body must be a JSON object");
      }
      throw ApiException.invalidField(prefix, "must be a JSON object");
    }
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw new ApiException(
            ErrorCode.UNKNOWN_FIELD,
            join(prefix, name),
            "unknown field; this route takes " + String.join(", ", sorted(allowed)));
      }
    }
    return new JsonFields(node, prefix);
  }

  /** The path of a field of this object, as errors name it. */
  public String path(String name) {
    return join(prefix, name);
  }

  /** Whether the field is present and not null. */
  public boolean has(String name) {
    JsonNode value = node.get(name);
    return value != null && !value.isNull();
  }

  /** The raw value, or null when absent; a JSON {@code null} is returned as a null node. */
  public JsonNode raw(String name) {
    return node.get(name);
  }

  /**
   * An integer within {@code [min, max]}, or null when absent.
   *
   * @throws ApiException when not an integer or out of range
   */
  public Long optionalLong(String name, long min, long max) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    String range = " between " + min + " and " + max;
    if (!value.isIntegralNumber()) {
      if (value.isNumber() && isWhole(value.decimalValue())) {
        // 5.0 and 1e3 are whole numbers; accept them like integers.
        return checkRange(name, value.decimalValue(), min, max, range);
      }
      throw ApiException.invalidField(
          path(name), "must be an integer" + range + ", got " + describe(value));
    }
    return checkRange(name, new BigDecimal(value.bigIntegerValue()), min, max, range);
  }

  /**
   * An integer within {@code [min, max]} that must be present.
   *
   * @throws ApiException when absent, not an integer or out of range
   */
  public long requiredLong(String name, long min, long max) {
    Long value = optionalLong(name, min, max);
    if (value == null) {
      throw ApiException.invalidField(
          path(name), "is required (an integer between " + min + " and " + max + ")");
    }
    return value;
  }

  /** An integer within {@code [min, max]}, or the default when absent. */
  public long longOr(String name, long min, long max, long defaultValue) {
    Long value = optionalLong(name, min, max);
    return value == null ? defaultValue : value;
  }

  /** An integer within {@code [min, max]} (both within int), or null when absent. */
  public Integer optionalInt(String name, int min, int max) {
    Long value = optionalLong(name, min, max);
    return value == null ? null : value.intValue();
  }

  /** A number within {@code [min, max]}, or null when absent. */
  public Double optionalNumber(String name, double min, double max) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isNumber()) {
      throw ApiException.invalidField(
          path(name),
          "must be a number between " + min + " and " + max + ", got " + describe(value));
    }
    double number = value.doubleValue();
    if (!(number >= min && number <= max)) {
      throw ApiException.invalidField(
          path(name), "must be a number between " + min + " and " + max + ", got " + value);
    }
    return number;
  }

  /**
   * A whole number ({@code 5}, {@code 5.0} and {@code 1e3} count) that fits in a long, or null when
   * absent. Its range is for the caller to check.
   *
   * @param expected what the field must be, for the error message (e.g. {@code "an integer from 0
   *     to 10"})
   * @throws ApiException {@code invalid_field} when the value is not such a number
   */
  public Long optionalWholeNumber(String name, String expected) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    if (value.isNumber()) {
      BigDecimal number =
          value.isIntegralNumber() ? new BigDecimal(value.bigIntegerValue()) : value.decimalValue();
      if (isWhole(number)
          && number.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
          && number.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
        return number.longValueExact();
      }
    }
    throw ApiException.invalidField(path(name), "must be " + expected + ", got " + describe(value));
  }

  /**
   * Any number, or null when absent. Its range is for the caller to check.
   *
   * @param expected what the field must be, for the error message (e.g. {@code "a number from 0 to
   *     1"})
   * @throws ApiException {@code invalid_field} when the value is not a number
   */
  public Double optionalNumber(String name, String expected) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isNumber()) {
      throw ApiException.invalidField(
          path(name), "must be " + expected + ", got " + describe(value));
    }
    return value.doubleValue();
  }

  /** A boolean, or null when absent. */
  public Boolean optionalBoolean(String name) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isBoolean()) {
      throw ApiException.invalidField(path(name), "must be true or false, got " + describe(value));
    }
    return value.booleanValue();
  }

  /** A string of at most {@code maxLength} characters, or null when absent. */
  public String optionalText(String name, int maxLength) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw ApiException.invalidField(path(name), "must be a string, got " + describe(value));
    }
    String text = value.textValue();
    if (text.length() > maxLength) {
      throw ApiException.invalidField(
          path(name), "must be at most " + maxLength + " characters, got " + text.length());
    }
    return text;
  }

  /** A non-empty string of at most {@code maxLength} characters. */
  public String requiredText(String name, int maxLength) {
    String text = optionalText(name, maxLength);
    if (text == null || text.isEmpty()) {
      throw ApiException.invalidField(path(name), "is required (a non-empty string)");
    }
    return text;
  }

  /** A list of strings (1 to {@code maxItems}, each at most {@code maxLength}), or null. */
  public List<String> optionalTextList(String name, int maxItems, int maxLength) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isArray()) {
      throw ApiException.invalidField(
          path(name), "must be an array of strings, got " + describe(value));
    }
    if (value.isEmpty() || value.size() > maxItems) {
      throw ApiException.invalidField(
          path(name), "must hold 1 to " + maxItems + " strings, got " + value.size());
    }
    List<String> items = new ArrayList<>(value.size());
    for (int i = 0; i < value.size(); i++) {
      JsonNode item = value.get(i);
      if (!item.isTextual()
          || item.textValue().isEmpty()
          || item.textValue().length() > maxLength) {
        throw ApiException.invalidField(
            path(name) + "[" + i + "]", "must be a string of 1 to " + maxLength + " characters");
      }
      items.add(item.textValue());
    }
    return items;
  }

  /** A nested object, or null when absent. */
  public JsonFields optionalObject(String name, Set<String> allowed) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    return of(value, path(name), allowed);
  }

  /** Whether the object has no fields (nulls included). */
  public boolean isEmpty() {
    return node.isEmpty();
  }

  private Long checkRange(String name, BigDecimal value, long min, long max, String range) {
    if (value.compareTo(BigDecimal.valueOf(min)) < 0
        || value.compareTo(BigDecimal.valueOf(max)) > 0) {
      throw ApiException.invalidField(
          path(name), "must be an integer" + range + ", got " + abbreviate(value.toPlainString()));
    }
    return value.longValueExact();
  }

  private static boolean isWhole(BigDecimal value) {
    return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
  }

  static String describe(JsonNode value) {
    if (value.isTextual()) {
      return "a string";
    }
    if (value.isBoolean()) {
      return value.asText();
    }
    if (value.isArray()) {
      return "an array";
    }
    if (value.isObject()) {
      return "an object";
    }
    if (value.isNumber()) {
      return abbreviate(value.asText());
    }
    return value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
  }

  private static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }

  private static String join(String prefix, String name) {
    return prefix.isEmpty() ? name : prefix + "." + name;
  }

  private static List<String> sorted(Set<String> names) {
    return names.stream().sorted().toList();
  }
}
