package io.lineup.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JobIdsTest {
  @Test
  void aCallersIdIsNameCharactersAndColonsUpTo128() {
    assertThat(JobIds.isCallerId("order:42.a_b-c")).isTrue();
    assertThat(JobIds.isCallerId("a".repeat(128))).isTrue();
    assertThat(JobIds.isCallerId("a".repeat(129))).isFalse();
    assertThat(JobIds.isCallerId("")).isFalse();
    assertThat(JobIds.isCallerId(null)).isFalse();
    assertThat(JobIds.isCallerId("a b")).isFalse();
  }

  @Test
  void onlyTheEnginesIdsHaveATilde() {
    assertThat(JobIds.isCallerId("~abc")).isFalse();
    assertThat(JobIds.isJobId("~abc")).isTrue();
    assertThat(JobIds.isJobId("order:42")).isTrue();
    assertThat(JobIds.isJobId("a/b")).isFalse();
    assertThat(JobIds.isJobId("a".repeat(129))).isFalse();
  }

  @Test
  void theRulesReadAsTheErrorMessagesGiveThem() {
    assertThat(JobIds.CALLER_ID_RULE)
        .isEqualTo("must be 1 to 128 characters from A-Z a-z 0-9 _ . : -");
    assertThat(JobIds.PATH_ID_RULE)
        .isEqualTo("a job id is 1 to 128 characters from A-Z a-z 0-9 _ . : - ~");
  }
}
