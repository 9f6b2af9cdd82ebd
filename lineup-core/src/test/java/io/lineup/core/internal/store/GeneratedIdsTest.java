package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GeneratedIdsTest {
  @ParameterizedTest
  @CsvSource({
    "1, ~1",
    "9, ~9",
    "10, ~A",
    "35, ~Z",
    "36, ~a",
    "61, ~z",
    "62, ~10",
    "3843, ~zz",
    "3844, ~100",
    "17592186044415, ~4ziepp2F",
    "9223372036854775807, ~AzL8n0Y58m7"
  })
  void anArrivalNumberIsWrittenInBase62AfterATilde(long arrival, String id) {
    assertThat(GeneratedIds.of(arrival)).isEqualTo(id);
  }

  @Test
  void thereIsNoIdForAnArrivalBelowOne() {
    assertThatThrownBy(() -> GeneratedIds.of(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0");
  }
}
