package io.lineup.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.client.Namespace;
import io.lineup.client.TokenInfo;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * How a command prints: human tables by default, JSON with {@code --json} (field names and units as
 * in the HTTP API: snake_case, epoch milliseconds in {@code _at}, milliseconds in {@code _ms}).
 */
final class Output {
  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  @Option(names = "--json", description = "Print JSON for scripts instead of tables.")
  boolean json;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  /** Standard output of the run. */
  PrintStream out() {
    return LineupCli.contextOf(command).out();
  }

  /** Standard error of the run: notices and progress, never results. */
  PrintStream err() {
    return LineupCli.contextOf(command).err();
  }

  /** Standard input of the run. */
  InputStream in() {
    return LineupCli.contextOf(command).in();
  }

  /**
   * Prints one JSON value on one line: a tree, or an API resource record under the names its
   * annotations give (the server's).
   */
  void json(Object value) {
    json(value, null);
  }

  /**
   * Prints one JSON value on one line as {@link #json(Object)} does, with only the fields of a JSON
   * view (all when {@code view} is null): a ticket's record has the fields of its status.
   */
  void json(Object value, Class<?> view) {
    try {
      out().println(MAPPER.writerWithView(view).writeValueAsString(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    out().flush();
  }

  /** Prints rows under headers, each column as wide as its widest cell. */
  void table(List<String> headers, List<List<String>> rows) {
    int[] widths = new int[headers.size()];
    List<List<String>> all = new ArrayList<>();
    all.add(headers);
    all.addAll(rows);
    for (List<String> row : all) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    for (List<String> row : all) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        String cell = row.get(i);
        line.append(cell);
        if (i < row.size() - 1) {
          line.append(" ".repeat(widths[i] - cell.length() + 2));
        }
      }
      out().println(line.toString().stripTrailing());
    }
    out().flush();
  }

  /** Prints label/value lines, the labels aligned. */
  void fields(List<String[]> pairs) {
    int width = pairs.stream().mapToInt(p -> p[0].length()).max().orElse(0);
    for (String[] pair : pairs) {
      out().println(pair[0] + ":" + " ".repeat(width - pair[0].length() + 1) + pair[1]);
    }
    out().flush();
  }

  static String time(Instant at) {
    return at == null ? "-" : TIME.format(at);
  }

  /** A time of the API, epoch milliseconds, or "-" when null. */
  static String time(Long epochMillis) {
    return epochMillis == null ? "-" : time(Instant.ofEpochMilli(epochMillis));
  }

  /** A duration of the API, milliseconds, or "-" when null. */
  static String millis(Long millis) {
    return millis == null ? "-" : duration(Duration.ofMillis(millis));
  }

  static String duration(Duration d) {
    return d == null ? "-" : Durations.human(d);
  }

  static String rate(double perSecond) {
    return String.format(Locale.ROOT, "%.1f", perSecond);
  }

  /** Bytes as text when they are UTF-8 JSON or text, else base64 in angle brackets. */
  static String bytes(byte[] bytes) {
    if (bytes == null) {
      return "-";
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    boolean printable = text.chars().noneMatch(c -> c == 0xFFFD || c < 0x20 && c != '\t');
    return printable ? text : "<base64 " + Base64.getEncoder().encodeToString(bytes) + ">";
  }

  // ---- JSON forms, the same fields as the HTTP API's

  static void putTime(ObjectNode node, String name, Instant at) {
    if (at == null) {
      node.putNull(name);
    } else {
      node.put(name, at.toEpochMilli());
    }
  }

  static ObjectNode token(TokenInfo token) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", token.id());
    if (token.token() != null) {
      node.put("token", token.token());
    }
    node.put("namespace", token.namespace());
    ArrayNode scopes = node.putArray("scopes");
    token.scopes().forEach(scopes::add);
    node.put("max_priority", token.maxPriority());
    node.put("name", token.name());
    putTime(node, "created_at", token.createdAt());
    return node;
  }

  static ObjectNode namespace(Namespace ns) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("name", ns.name());
    putTime(node, "created_at", ns.createdAt());
    return node;
  }
}
