package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every decoder of {@link ScriptReplies} reads the values its script's {@code Returns} header
 * lists, in the same order, so a change on one side that the other does not follow fails here.
 */
class ReplyShapesTest {
  private static final Pattern PART = Pattern.compile("^--\\s+(\\w+) = \\{([^}]*)}\\s*$");

  /** The shapes each script's decoder expects: "Returns" and any named part such as "job". */
  private static final Map<String, Map<String, List<String>>> EXPECTED =
      Map.ofEntries(
          Map.entry(
              "publish",
              Map.of(
                  "Returns", names(ScriptReplies.Publish.class),
                  "plain", names(ScriptReplies.PlainPublish.class),
                  "fenced", names(ScriptReplies.FencedPublish.class),
                  "refused", names(ScriptReplies.RefusedPublish.class))),
          Map.entry(
              "lease",
              Map.of(
                  "Returns", names(ScriptReplies.Lease.class, "job..."),
                  "job", names(ScriptReplies.LeasedJobField.class))),
          Map.entry("ack", Map.of("Returns", List.of("code..."))),
          Map.entry("nack", Map.of("Returns", names(ScriptReplies.Nack.class))),
          Map.entry("extend", Map.of("Returns", names(ScriptReplies.Extend.class))),
          Map.entry("release", Map.of("Returns", names(ScriptReplies.Release.class))),
          Map.entry("rate_slot", Map.of("Returns", names(ScriptReplies.RateSlot.class))),
          Map.entry("cancel", Map.of("Returns", names(ScriptReplies.Cancel.class))),
          Map.entry("shorten", Map.of("Returns", names(ScriptReplies.Shorten.class))),
          Map.entry("replace_record", Map.of("Returns", names(ScriptReplies.ReplaceRecord.class))),
          Map.entry("get", Map.of("Returns", names(ScriptReplies.Get.class))),
          Map.entry("stats", Map.of("Returns", names(ScriptReplies.Stats.class))),
          Map.entry(
              "peek", Map.of("Returns", List.of("job..."), "job", names(ScriptReplies.Peek.class))),
          Map.entry(
              "dead_list",
              Map.of(
                  "Returns", names(ScriptReplies.DeadList.class, "job..."),
                  "job", names(ScriptReplies.DeadJobField.class))),
          Map.entry(
              "jobs_list",
              Map.of(
                  "Returns", names(ScriptReplies.JobsList.class, "job..."),
                  "job", names(ScriptReplies.ListedJobField.class))),
          Map.entry(
              "jobs_act",
              Map.of(
                  "Returns",
                  List.of("outcome..."),
                  "outcome",
                  names(ScriptReplies.ActOutcomeField.class))),
          Map.entry("respawn", Map.of("Returns", names(ScriptReplies.Batch.class))),
          Map.entry("purge", Map.of("Returns", names(ScriptReplies.Batch.class))),
          Map.entry("promote", Map.of("Returns", names(ScriptReplies.Promote.class))),
          Map.entry("reclaim", Map.of("Returns", names(ScriptReplies.Sweep.class))),
          Map.entry("expire", Map.of("Returns", names(ScriptReplies.Sweep.class))),
          Map.entry("retention", Map.of("Returns", names(ScriptReplies.Sweep.class))),
          Map.entry("outbox_ack", Map.of("Returns", names(ScriptReplies.Sweep.class))),
          Map.entry("configure", Map.of("Returns", names(ScriptReplies.Configure.class))),
          Map.entry(
              "schedule_read",
              Map.of(
                  "Returns", names(ScriptReplies.ScheduleRead.class, "schedule..."),
                  "schedule", names(ScriptReplies.ScheduleField.class))),
          Map.entry("schedule_write", Map.of("Returns", names(ScriptReplies.ScheduleWrite.class))),
          Map.entry(
              "schedule_fire",
              Map.of(
                  "Returns", names(ScriptReplies.ScheduleFire.class, "entry..."),
                  "entry", names(ScriptReplies.ScheduleFireEntry.class))),
          Map.entry(
              "schedule_delete", Map.of("Returns", names(ScriptReplies.ScheduleDelete.class))),
          Map.entry("fair_key_write", Map.of("Returns", names(ScriptReplies.FairKeyWrite.class))),
          Map.entry("fair_unpark", Map.of("Returns", names(ScriptReplies.FairUnpark.class))),
          Map.entry("fair_key_read", Map.of("Returns", names(ScriptReplies.FairKeyRead.class))),
          Map.entry(
              "fair_top",
              Map.of(
                  "Returns", names(ScriptReplies.FairTop.class, "entry..."),
                  "entry", names(ScriptReplies.FairTopEntry.class))),
          Map.entry("fair_drop", Map.of("Returns", names(ScriptReplies.FairDrop.class))),
          Map.entry(
              "adaptive_configure",
              Map.of("Returns", names(ScriptReplies.AdaptiveConfigure.class))),
          Map.entry(
              "adaptive_report", Map.of("Returns", names(ScriptReplies.AdaptiveReport.class))),
          Map.entry("adaptive_read", Map.of("Returns", names(ScriptReplies.AdaptiveRead.class))));

  static Stream<Arguments> shapes() {
    return EXPECTED.entrySet().stream()
        .flatMap(script ->
            script.getValue().entrySet().stream()
                .map(part -> Arguments.of(script.getKey(), part.getKey(), part.getValue())));
  }

  @ParameterizedTest(name = "{0}.lua {1}")
  @MethodSource("shapes")
  void theDecoderReadsTheValuesTheScriptHeaderLists(
      String script, String part, List<String> decoded) {
    assertThat(headerShape(script, part))
        .as("%s.lua: %s in the header against its decoder in ScriptReplies", script, part)
        .isEqualTo(decoded);
  }

  @Test
  void everyScriptTheEngineCallsHasItsReplyShapeChecked() {
    assertThat(EXPECTED.keySet()).containsExactlyInAnyOrderElementsOf(ScriptLibrary.NAMES);
  }

  @Test
  void aHeaderThatListsADifferentOrderIsCaught() {
    List<String> header = splitNames(" code, lease_deadline_ms ");
    assertThat(header).isEqualTo(names(ScriptReplies.Extend.class));
    assertThat(splitNames(" lease_deadline_ms, code "))
        .isNotEqualTo(names(ScriptReplies.Extend.class));
  }

  /** The names a script's header lists for "Returns" or a named part ({@code -- job = {..}}). */
  static List<String> headerShape(String script, String part) {
    List<String> header = new ArrayList<>();
    for (String line : ScriptLibrary.raw(script + ".lua").split("\n")) {
      if (!line.startsWith("--") || line.startsWith("--#include")) {
        break;
      }
      header.add(line);
    }
    if (part.equals("Returns")) {
      StringBuilder text = new StringBuilder();
      boolean in = false;
      for (String line : header) {
        if (line.startsWith("-- Returns")) {
          in = true;
        } else if (in && !line.startsWith("--    ")) {
          break;
        }
        if (in) {
          text.append(line.substring(2)).append(' ');
        }
      }
      Matcher braces = Pattern.compile("\\{([^}]*)}").matcher(text);
      while (braces.find()) {
        if (!braces.group(1).isBlank()) {
          return splitNames(braces.group(1));
        }
      }
      throw new AssertionError(script + ".lua has no Returns { ... } list");
    }
    for (String line : header) {
      Matcher named = PART.matcher(line);
      if (named.matches() && named.group(1).equals(part)) {
        return splitNames(named.group(2));
      }
    }
    throw new AssertionError(script + ".lua has no '--   " + part + " = { ... }' line");
  }

  private static List<String> splitNames(String list) {
    return Arrays.stream(list.split(",")).map(String::trim).toList();
  }

  private static List<String> names(Class<? extends Enum<?>> shape, String... tail) {
    List<String> names = new ArrayList<>();
    for (Enum<?> value : shape.getEnumConstants()) {
      names.add(value.name().toLowerCase(Locale.ROOT));
    }
    names.addAll(List.of(tail));
    return names;
  }
}
