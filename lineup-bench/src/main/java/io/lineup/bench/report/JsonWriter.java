package io.lineup.bench.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the small JSON documents the bench prints: objects of strings, numbers, booleans, nulls
 * and nested maps. Not a general JSON library; the bench needs nothing more.
 */
final class JsonWriter {
  private JsonWriter() {}

  /** {@code value} as JSON text. Non-finite numbers become null (JSON has no NaN). */
  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    append(out, value);
    return out.toString();
  }

  private static void append(StringBuilder out, Object value) {
    switch (value) {
      case null -> out.append("null");
      case Boolean b -> out.append(b);
      case Double d -> appendNumber(out, d);
      case Float f -> appendNumber(out, f.doubleValue());
      case Number n -> out.append(n.longValue());
      case Map<?, ?> map -> {
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          if (!first) {
            out.append(',');
          }
          first = false;
          appendString(out, String.valueOf(entry.getKey()));
          out.append(':');
          append(out, entry.getValue());
        }
        out.append('}');
      }
      default -> appendString(out, value.toString());
    }
  }

  private static void appendNumber(StringBuilder out, double d) {
    if (!Double.isFinite(d)) {
      out.append("null");
    } else if (Math.abs(d) >= 100) {
      // Whole units are plenty for rates and byte counts; fractions are noise there.
      out.append(Math.round(d));
    } else {
      out.append(new BigDecimal(d).round(new MathContext(4)).stripTrailingZeros().toPlainString());
    }
  }

  private static void appendString(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
