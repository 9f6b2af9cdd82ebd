package io.lineup.pass;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON this module reads (a JWT's header and claims, a JWKS) and writes, so that it
 * needs nothing beyond the JDK. Objects become {@link Map}s, arrays {@link List}s, numbers {@link
 * BigDecimal}s; a duplicate key is refused, since two readers could take different ones.
 */
final class MiniJson {
  /** Deepest nesting read; a JWKS needs three levels. */
  static final int MAX_DEPTH = 16;

  private final String text;
  private int at;

  private MiniJson(String text) {
    this.text = text;
  }

  /**
   * Reads one JSON value.
   *
   * @throws IllegalArgumentException when the text is not one well-formed JSON value
   */
  static Object parse(String text) {
    MiniJson reader = new MiniJson(text);
    reader.skipSpace();
    Object value = reader.value(0);
    reader.skipSpace();
    if (reader.at != text.length()) {
      throw new IllegalArgumentException("trailing text at " + reader.at);
    }
    return value;
  }

  private Object value(int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("nested too deeply");
    }
    if (at >= text.length()) {
      throw new IllegalArgumentException("unexpected end");
    }
    char c = text.charAt(at);
    return switch (c) {
      case '{' -> object(depth);
      case '[' -> array(depth);
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object(int depth) {
    Map<String, Object> map = new LinkedHashMap<>();
    at++;
    skipSpace();
    if (peek() == '}') {
      at++;
      return map;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw new IllegalArgumentException("expected a key at " + at);
      }
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      Object value = value(depth + 1);
      if (map.containsKey(key)) {
        throw new IllegalArgumentException("duplicate key " + key);
      }
      map.put(key, value);
      skipSpace();
      char c = next();
      if (c == '}') {
        return map;
      }
      if (c != ',') {
        throw new IllegalArgumentException("expected , or } at " + (at - 1));
      }
    }
  }

  private List<Object> array(int depth) {
    List<Object> list = new ArrayList<>();
    at++;
    skipSpace();
    if (peek() == ']') {
      at++;
      return list;
    }
    while (true) {
      skipSpace();
      list.add(value(depth + 1));
      skipSpace();
      char c = next();
      if (c == ']') {
        return list;
      }
      if (c != ',') {
        throw new IllegalArgumentException("expected , or ] at " + (at - 1));
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        throw new IllegalArgumentException("control character in a string at " + (at - 1));
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (at + 4 > text.length()) {
            throw new IllegalArgumentException("cut-off escape");
          }
          try {
            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("bad escape at " + at);
          }
          at += 4;
        }
        default -> throw new IllegalArgumentException("bad escape at " + (at - 1));
      }
    }
  }

  private Object number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    if (start == at) {
      throw new IllegalArgumentException("unexpected character at " + at);
    }
    try {
      return new BigDecimal(text.substring(start, at));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad number at " + start);
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, at)) {
      throw new IllegalArgumentException("unexpected text at " + at);
    }
    at += word.length();
    return value;
  }

  private void skipSpace() {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
  }

  private char peek() {
    if (at >= text.length()) {
      throw new IllegalArgumentException("unexpected end");
    }
    return text.charAt(at);
  }

  private char next() {
    char c = peek();
    at++;
    return c;
  }

  private void expect(char c) {
    if (next() != c) {
      throw new IllegalArgumentException("expected " + c + " at " + (at - 1));
    }
  }

  /** A JSON string literal of {@code value}, quoted and escaped. */
  static String quote(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
