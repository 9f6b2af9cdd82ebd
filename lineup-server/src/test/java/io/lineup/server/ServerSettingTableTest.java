package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ServerSetting} is the one table of the server's settings: the docs show it as it is, its
 * defaults are within its bounds, and its bounds are the ones the docs state.
 */
class ServerSettingTableTest {
  private static final String HEADER =
      "| Variable | Flag | Default | Meaning and bounds |\n|---|---|---|---|\n";

  @Test
  void theSettingsTableOfTheOperationsDocsIsTheTableOfServerSetting() throws IOException {
    StringBuilder expected = new StringBuilder(HEADER);
    for (ServerSetting setting : ServerSetting.values()) {
      expected.append(setting.docRow()).append('\n');
    }
    String docs = Files.readString(Path.of("..", "docs", "operations.md"));
    int from = docs.indexOf(HEADER);
    assertThat(from).as("the settings table's header in docs/operations.md").isNotNegative();
    int to = docs.indexOf("\n\n", from);
    String table = docs.substring(from, to + 1);

    List<String> toFix = new ArrayList<>();
    List<String> shown = table.lines().toList();
    for (String row : expected.toString().lines().toList()) {
      if (!shown.contains(row)) {
        toFix.add(row);
      }
    }
    assertThat(table)
        .as(
            "docs/operations.md's settings table; the rows to write there:%n%s",
            String.join("\n", toFix))
        .isEqualTo(expected.toString());
  }

  @Test
  void everyDefaultIsReadAsIfGivenAndIsWithinItsBounds() {
    for (ServerSetting setting : ServerSetting.values()) {
      if (setting.defaultValue() == null) {
        continue;
      }
      switch (setting.kind()) {
        case NUMBER -> setting.check(setting.number(null));
        case BOOLEAN -> setting.bool(null);
        case TEXT -> assertThat(setting.text(null)).as(setting.name()).isNotBlank();
      }
    }
  }

  @Test
  void everyNumberStatesItsBoundsInTheDocs() {
    for (ServerSetting setting : ServerSetting.values()) {
      if (setting.kind() == ServerSetting.Kind.NUMBER) {
        assertThat(setting.doc())
            .as(setting.name())
            .contains(setting.min() + " ")
            .contains(" to " + setting.max());
      }
    }
  }

  @Test
  void everySettingIsReadFromItsVariableAndFromItsFlag() {
    for (ServerSetting setting : ServerSetting.values()) {
      assertThat(setting.variable()).isEqualTo("LINEUP_" + setting.name());
      assertThat(setting.flag())
          .isEqualTo("--" + setting.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
      assertThat(ServerFlags.read(Map.of(setting.variable(), " x "), List.of()))
          .containsEntry(setting, "x");
      assertThat(ServerFlags.read(Map.of(), List.of(setting.flag() + "= y ")))
          .containsEntry(setting, "y");
    }
  }
}
