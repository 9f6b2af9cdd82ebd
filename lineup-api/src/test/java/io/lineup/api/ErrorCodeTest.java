package io.lineup.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorCodeTest {
  @Test
  void aCodeIsItsNameInLowerCaseAndReadsBack() {
    assertThat(ErrorCode.INVALID_NAME.code()).isEqualTo("invalid_name");
    for (ErrorCode code : ErrorCode.values()) {
      assertThat(ErrorCode.byCode(code.code())).isEqualTo(code);
    }
  }

  @Test
  void anUnknownCodeReadsAsNothing() {
    assertThat(ErrorCode.byCode("from_a_newer_server")).isNull();
    assertThat(ErrorCode.byCode(null)).isNull();
    assertThat(ErrorCode.byCode("INVALID_NAME")).isNull();
  }

  @Test
  void eachCodeHasTheStatusItIsAnsweredWith() {
    assertThat(ErrorCode.INVALID_FIELD.status()).isEqualTo(400);
    assertThat(ErrorCode.LEASE_LOST.status()).isEqualTo(409);
    assertThat(ErrorCode.RATE_LIMITED.status()).isEqualTo(429);
  }
}
