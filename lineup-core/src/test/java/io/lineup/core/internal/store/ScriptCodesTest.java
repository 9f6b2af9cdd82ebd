package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.QueueName;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The result codes of lib/codes.lua and ScriptCode are one list, and each failure has a meaning.
 */
class ScriptCodesTest {
  private static final Pattern CODE =
      Pattern.compile("^local C_(\\w+) = (-?\\d+)", Pattern.MULTILINE);

  static Map<String, Integer> luaCodes() {
    Map<String, Integer> codes = new LinkedHashMap<>();
    Matcher m = CODE.matcher(ScriptLibrary.raw("lib/codes.lua"));
    while (m.find()) {
      codes.put(m.group(1), Integer.parseInt(m.group(2)));
    }
    return codes;
  }

  @Test
  void everyCodeOfTheScriptsHasItsTwinInJavaAndNoneMore() {
    Map<String, Integer> java =
        Arrays.stream(ScriptCode.values())
            .collect(
                Collectors.toMap(Enum::name, ScriptCode::code, (a, b) -> a, LinkedHashMap::new));
    assertThat(luaCodes()).isNotEmpty().containsExactlyInAnyOrderEntriesOf(java);
  }

  @Test
  void everyFailureCodeOfASettleBecomesTheEngineExceptionThatNamesIt() {
    QueueName queue = QueueName.of("shop", "orders");
    for (ScriptCode code : ScriptCode.values()) {
      var failure = ScriptFailures.ofSettle(code, queue, "order-42");
      switch (code) {
        case OK -> assertThat(failure).isNull();
        case EXISTS -> assertThat(failure).as("publish only").isNotNull();
        case CHANGED -> assertThat(failure).as("replace_record only").isNotNull();
        case NOT_FOUND -> assertThat(failure).isInstanceOf(JobNotFoundException.class);
        default ->
            assertThat(failure)
                .as(code.name())
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("order-42");
      }
    }
    assertThat(
            Arrays.stream(ScriptCode.values())
                .map(code -> ScriptFailures.ofSettle(code, queue, "j"))
                .filter(LeaseLostException.class::isInstance)
                .map(e -> ((LeaseLostException) e).reason())
                .distinct()
                .count())
        .as("every lease-lost code has a reason of its own")
        .isEqualTo(LeaseLostException.Reason.values().length);
  }
}
