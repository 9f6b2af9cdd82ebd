package io.lineup.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.api.QueueSettingField;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link QueueSetting} definitions are the one source of each setting's names, bounds and
 * default: the codec, the checks, the Lua defaults and the docs table follow them.
 */
public class QueueSettingDefinitionsTest {
  private static final String SETTINGS_LUA = "/io/lineup/core/scripts/lib/settings.lua";

  /** Where the generated table starts and ends in docs/engine.md. */
  static final String TABLE_START =
      "<!-- queue settings table: generated from QueueSetting, checked by a test -->";

  static final String TABLE_END = "<!-- end of queue settings table -->";

  @Test
  void eachSettingHasItsOwnJsonNamesFromLineupApiAndEveryOneOfThemIsASetting() {
    assertThat(Arrays.stream(QueueSetting.values()).map(QueueSetting::field))
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrder(QueueSettingField.values());
    for (QueueSetting setting : QueueSetting.values()) {
      assertThat(setting.field().name()).isEqualTo(setting.name());
      assertThat(setting.field().group()).isEqualTo(setting.group());
    }
  }

  @Test
  void everySettingHasItsOwnNameInJavaInJsonAndInRedis() {
    List<QueueSetting> all = List.of(QueueSetting.values());
    assertThat(all.stream().map(QueueSetting::engineName)).doesNotHaveDuplicates();
    assertThat(all.stream().map(QueueSetting::jsonPath)).doesNotHaveDuplicates();
    assertThat(all.stream().map(QueueSetting::storedName)).doesNotHaveDuplicates();
    for (QueueSetting setting : all) {
      assertThat(QueueSetting.byEngineName(setting.engineName())).contains(setting);
    }
    assertThat(QueueSetting.byEngineName("priority")).isEmpty();
  }

  @Test
  void theLuaScriptsReadEverySettingUnderItsStoredNameWithItsDefault() {
    String lua = resource(SETTINGS_LUA);
    List<String> luaNames = quotedNames(block(lua, "SETTING_NAMES"));
    Map<String, String> luaDefaults = assignments(block(lua, "SETTING_DEFAULTS"));

    assertThat(luaNames)
        .as("SETTING_NAMES in lib/settings.lua")
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(QueueSetting.values()).map(QueueSetting::storedName).toList());
    assertThat(luaDefaults.keySet())
        .as("SETTING_DEFAULTS in lib/settings.lua")
        .containsExactlyInAnyOrderElementsOf(luaNames);
    for (QueueSetting setting : QueueSetting.values()) {
      String luaDefault = luaDefaults.get(setting.storedName());
      String javaDefault = setting.stored(setting.defaultJavaValue());
      if (luaDefault.startsWith("'")) {
        assertThat(luaDefault).as(setting.storedName()).isEqualTo("'" + javaDefault + "'");
      } else {
        assertThat(Double.parseDouble(luaDefault))
            .as(setting.storedName())
            .isEqualTo(Double.parseDouble(javaDefault));
      }
    }
  }

  @Test
  void theSettingsTableOfTheEngineDocsIsTheOneTheDefinitionsGive() throws IOException {
    String docs = Files.readString(Path.of("..", "docs", "engine.md"));
    assertThat(between(docs, TABLE_START, TABLE_END))
        .as("the table in docs/engine.md; paste this one:%n%s", engineTable())
        .isEqualTo(engineTable());
  }

  @Test
  void theJavaConstantsAreTheDefinitionsDefaultsAndBounds() {
    QueueSettings defaults = QueueSetting.defaults();
    assertThat(defaults.maxAttempts()).isEqualTo(QueueSettings.DEFAULT_MAX_ATTEMPTS).isEqualTo(3);
    assertThat(defaults.timeToRun())
        .isEqualTo(QueueSettings.DEFAULT_TIME_TO_RUN)
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(defaults.retention()).isEqualTo(QueueSettings.DEFAULT_RETENTION);
    assertThat(defaults.retentionMax()).isEqualTo(QueueSettings.DEFAULT_RETENTION_MAX);
    assertThat(defaults.backoff()).isEqualTo(Backoff.DEFAULT);
    assertThat(defaults.paused()).isFalse();
    assertThat((long) QueueSettings.MAX_RATE_LIMIT).isEqualTo(QueueSetting.RATE_LIMIT.max());
    assertThat((long) QueueSettings.MAX_CONCURRENCY_LIMIT)
        .isEqualTo(QueueSetting.CONCURRENCY_LIMIT.max());
    assertThat(Backoff.MAX_WAIT_MS).isEqualTo(QueueSetting.BACKOFF_MAX.max());
  }

  @Test
  void eachSettingIsReadFromSettingsInTheFormOfItsType() {
    QueueSettings defaults = QueueSetting.defaults();
    for (QueueSetting setting : QueueSetting.values()) {
      assertThat(setting.valueIn(defaults)).as(setting.name()).isEqualTo(setting.defaultValue());
      assertThat(setting.valueIn(QueueSettings.builder().build())).as(setting.name()).isNull();
    }
    assertThat(QueueSetting.TIME_TO_RUN.valueIn(defaults)).isEqualTo(30_000L);
    assertThat(QueueSetting.BACKOFF_KIND.valueIn(defaults)).isEqualTo("exponential");
  }

  @Test
  void aChangeOfEverySettingEncodesToTheStoredNamesAndDecodesBackToTheSameSettings() {
    for (Function<QueueSetting, Object> bound :
        List.<Function<QueueSetting, Object>>of(
            QueueSettingDefinitionsTest::highest, QueueSettingDefinitionsTest::lowest)) {
      Map<QueueSetting, Object> values = new EnumMap<>(QueueSetting.class);
      for (QueueSetting setting : QueueSetting.values()) {
        values.put(setting, bound.apply(setting));
      }
      QueueSettings change = QueueSettings.change(values, null);

      List<String> pairs = SettingsCodec.encode(change);
      Map<String, String> stored = new HashMap<>();
      for (int i = 0; i < pairs.size(); i += 2) {
        stored.put(pairs.get(i), pairs.get(i + 1));
      }

      assertThat(stored).hasSize(QueueSetting.values().length);
      assertThat(SettingsCodec.decode(stored)).isEqualTo(change);
      for (QueueSetting setting : QueueSetting.values()) {
        assertThat(setting.valueIn(change)).as(setting.name()).isEqualTo(values.get(setting));
      }
    }
  }

  @Test
  void aBuilderSetsOnlyWhatItIsToldAndMutateStartsFromTheSettingsAtHand() {
    QueueSettings defaults = QueueSetting.defaults();
    assertThat(defaults.mutate().build()).as("every setting carried over").isEqualTo(defaults);

    QueueSettings changed = defaults.mutate().rateLimit(300).paused(true).build();
    assertThat(changed.rateLimit()).isEqualTo(300);
    assertThat(changed.paused()).isTrue();
    assertThat(changed.mutate().rateLimit(0).paused(false).build()).isEqualTo(defaults);

    QueueSettings change = QueueSettings.builder().maxAttempts(5).build();
    for (QueueSetting setting : QueueSetting.values()) {
      assertThat(setting.valueIn(change))
          .as(setting.name())
          .isEqualTo(setting == QueueSetting.MAX_ATTEMPTS ? 5L : null);
    }
  }

  @Test
  void aChangeOfNothingEncodesToNoPairsAndStoredNothingDecodesToTheDefaults() {
    assertThat(SettingsCodec.encode(QueueSettings.builder().build())).isEmpty();
    assertThat(SettingsCodec.decode(Map.of())).isEqualTo(QueueSetting.defaults());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("numericSettings")
  void aValueJustOutsideTheBoundsIsRefusedNamingTheJavaField(QueueSetting setting) {
    for (Object outside : List.of(belowLowest(setting), aboveHighest(setting))) {
      assertThatThrownBy(
              () -> SettingsCodec.encode(QueueSettings.change(Map.of(setting, outside), null)))
          .as("%s = %s from the JSON form", setting, outside)
          .isInstanceOfSatisfying(
              InvalidArgumentException.class,
              e -> {
                assertThat(e.field()).isEqualTo(setting.engineName());
                assertThat(e.reason()).contains(setting.rangeText());
              });
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("numericSettings")
  void aJavaValueJustOutsideTheBoundsIsRefusedWhenTheChangeIsEncoded(QueueSetting setting) {
    for (Object outside : List.of(belowLowest(setting), aboveHighest(setting))) {
      Object javaValue =
          switch (setting.type()) {
            case INTEGER -> Math.toIntExact((Long) outside);
            case MILLIS -> Duration.ofMillis((Long) outside);
            default -> outside;
          };
      assertThatThrownBy(
              () -> {
                // A backoff refuses a bad part when it is made; the other settings when encoded.
                Map<QueueSetting, Object> java = new EnumMap<>(QueueSetting.class);
                if (setting.group() != null) {
                  for (QueueSetting s : QueueSetting.values()) {
                    if (setting.group().equals(s.group())) {
                      java.put(s, s.defaultJavaValue());
                    }
                  }
                }
                java.put(setting, javaValue);
                SettingsCodec.encode(QueueSetting.build(java));
              })
          .as("%s = %s", setting, javaValue)
          .isInstanceOfSatisfying(
              InvalidArgumentException.class,
              e -> assertThat(e.field()).isEqualTo(setting.engineName()));
    }
  }

  @Test
  void aDurationTooLargeForMillisecondsIsRefusedRatherThanOverflowing() {
    QueueSettings change =
        QueueSettings.builder().timeToRun(Duration.ofSeconds(Long.MAX_VALUE / 10)).build();
    assertThatThrownBy(() -> SettingsCodec.encode(change))
        .isInstanceOfSatisfying(
            InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("timeToRun"));
  }

  @Test
  void aValueOfAnotherTypeIsRefusedNamingTheJavaField() {
    Map<QueueSetting, Object> wrong =
        Map.of(
            QueueSetting.PAUSED, 1L,
            QueueSetting.RATE_LIMIT, "5",
            QueueSetting.TIME_TO_RUN, 1.5,
            QueueSetting.BACKOFF_JITTER, "0.1",
            QueueSetting.BACKOFF_KIND, "linear");
    wrong.forEach((setting, value) ->
        assertThatThrownBy(() -> QueueSettings.change(Map.of(setting, value), null))
            .as("%s = %s", setting, value)
            .isInstanceOfSatisfying(
                InvalidArgumentException.class,
                e -> assertThat(e.field()).isEqualTo(setting.engineName())));
  }

  @Test
  void aBackoffGivenInPartKeepsItsOtherPartsFromTheCurrentSettings() {
    QueueSettings current =
        QueueSettings.builder()
            .backoff(
                new Backoff(
                    Backoff.Kind.EXPONENTIAL, Duration.ofSeconds(3), Duration.ofMinutes(9), 0.5))
            .build();

    QueueSettings change =
        QueueSettings.change(
            Map.of(QueueSetting.BACKOFF_KIND, "FIXED", QueueSetting.BACKOFF_INITIAL, 2000L),
            () -> current);

    assertThat(change.backoff())
        .isEqualTo(
            new Backoff(Backoff.Kind.FIXED, Duration.ofSeconds(2), Duration.ofMinutes(9), 0.5));
    assertThat(change.paused()).isNull();
  }

  @Test
  void theCurrentSettingsAreReadOnlyForAGroupGivenInPart() {
    QueueSettings change =
        QueueSettings.change(
            Map.of(QueueSetting.RATE_LIMIT, 10L),
            () -> {
              throw new AssertionError("the current settings were read");
            });
    assertThat(change).isEqualTo(QueueSettings.builder().rateLimit(10).build());

    assertThatThrownBy(() -> QueueSettings.change(Map.of(QueueSetting.BACKOFF_MAX, 10L), null))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void valuesAtTheBoundsAreAccepted() {
    for (QueueSetting setting : QueueSetting.values()) {
      for (Object value : List.of(lowest(setting), highest(setting))) {
        assertThatCode(() ->
                SettingsCodec.encode(
                    QueueSettings.change(Map.of(setting, value), () -> QueueSetting.defaults())))
            .as("%s = %s", setting, value)
            .doesNotThrowAnyException();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(QueueSetting.class)
  void eachSettingHasADescriptionAndADefaultWithinItsBounds(QueueSetting setting) {
    assertThat(setting.description()).isNotBlank().doesNotContain("|");
    assertThatCode(() -> setting.check(setting.defaultJavaValue())).doesNotThrowAnyException();
    if (setting.type() == QueueSetting.Type.CHOICE) {
      assertThat(setting.choices()).contains((String) setting.defaultValue());
    }
  }

  @Test
  void durationsAreWordedInTheirLargestWholeUnit() {
    assertThat(QueueSetting.TIME_TO_RUN.rangeText()).isEqualTo("100 ms to 24 h");
    assertThat(QueueSetting.RETENTION.rangeText()).isEqualTo("0 to 30 days");
    assertThat(QueueSetting.BACKOFF_MAX.defaultText()).isEqualTo("5 min");
    assertThat(QueueSetting.durationText(1500)).isEqualTo("1500 ms");
    assertThat(QueueSetting.RATE_LIMIT.rangeText()).isEqualTo("0 to 100000");
    assertThat(QueueSetting.BACKOFF_KIND.rangeText()).isEqualTo("fixed or exponential");
  }

  // ---- the table of docs/engine.md ----

  /** The markdown table of every setting, as docs/engine.md holds it. */
  static String engineTable() {
    StringBuilder table =
        new StringBuilder(
            "| Java | HTTP (JSON) | Stored in `meta` as | Type | Range | Default | Meaning |\n"
                + "|---|---|---|---|---|---|---|\n");
    for (QueueSetting s : QueueSetting.values()) {
      String type =
          switch (s.type()) {
            case BOOLEAN -> "boolean";
            case INTEGER -> "integer";
            case MILLIS -> "duration (ms)";
            case FRACTION -> "number";
            case CHOICE -> "choice";
          };
      table.append(
          String.join(
                  " | ",
                  "| `" + s.engineName() + "`",
                  "`" + s.jsonPath() + "`",
                  "`" + s.storedName() + "`",
                  type,
                  s.rangeText(),
                  s.defaultText(),
                  s.description() + " |")
              + "\n");
    }
    return table.toString();
  }

  static String between(String text, String start, String end) {
    int from = text.indexOf(start);
    int to = text.indexOf(end);
    assertThat(from).as("the marker %s", start).isNotNegative();
    assertThat(to).as("the marker %s", end).isGreaterThan(from);
    return text.substring(from + start.length(), to).strip() + "\n";
  }

  // ---- values at and beyond the bounds, in the form of each type ----

  static Stream<QueueSetting> numericSettings() {
    return Arrays.stream(QueueSetting.values())
        .filter(s -> s.type() != QueueSetting.Type.BOOLEAN && s.type() != QueueSetting.Type.CHOICE);
  }

  /** A setting's lowest value (the first choice; false for a switch). */
  public static Object lowest(QueueSetting setting) {
    return switch (setting.type()) {
      case BOOLEAN -> false;
      case INTEGER, MILLIS -> setting.min();
      case FRACTION -> (double) setting.min();
      case CHOICE -> setting.choices().get(0);
    };
  }

  /** A setting's highest value (the last choice; true for a switch). */
  public static Object highest(QueueSetting setting) {
    return switch (setting.type()) {
      case BOOLEAN -> true;
      case INTEGER, MILLIS -> setting.max();
      case FRACTION -> (double) setting.max();
      case CHOICE -> setting.choices().get(setting.choices().size() - 1);
    };
  }

  static Object belowLowest(QueueSetting setting) {
    return setting.type() == QueueSetting.Type.FRACTION
        ? setting.min() - 0.001
        : (Object) (setting.min() - 1);
  }

  static Object aboveHighest(QueueSetting setting) {
    return setting.type() == QueueSetting.Type.FRACTION
        ? setting.max() + 0.001
        : (Object) (setting.max() + 1);
  }

  // ---- reading lib/settings.lua as text ----

  private static String resource(String name) {
    try (InputStream in = QueueSettingDefinitionsTest.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The text between the braces of {@code local NAME = {...}}. */
  private static String block(String lua, String name) {
    Matcher m = Pattern.compile("local " + name + " = \\{([^}]*)}").matcher(lua);
    assertThat(m.find()).as("%s in lib/settings.lua", name).isTrue();
    return m.group(1);
  }

  private static List<String> quotedNames(String list) {
    List<String> names =
        Pattern.compile("'([a-z_]+)'").matcher(list).results().map(r -> r.group(1)).toList();
    assertThat(names).as("names read from lib/settings.lua").isNotEmpty();
    return names;
  }

  private static Map<String, String> assignments(String table) {
    Map<String, String> values =
        Pattern.compile("([a-z_]+)\\s*=\\s*('[^']*'|[-0-9.]+)")
            .matcher(table)
            .results()
            .collect(Collectors.toMap(r -> r.group(1), r -> r.group(2)));
    assertThat(values).as("defaults read from lib/settings.lua").isNotEmpty();
    return values;
  }
}
