package io.lineup.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.api.ErrorCode;
import io.lineup.core.internal.store.ScriptCode;
import io.lineup.core.internal.store.ScriptFailures;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.PayloadTooLargeException;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisOutOfMemoryException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.eclipse.jetty.io.EofException;
import org.junit.jupiter.api.Test;

/** Engine failures become HTTP answers by their type, never by the words of their message. */
class ErrorMapperTest {
  @Test
  void everyFailureCodeOfTheScriptsMapsToAClientErrorThatIsNotABug() {
    QueueName queue = QueueName.of("shop", "orders");
    for (ScriptCode code : ScriptCode.values()) {
      LineupException failure = ScriptFailures.ofSettle(code, queue, "order-42");
      if (code == ScriptCode.OK || code == ScriptCode.EXISTS || code == ScriptCode.CHANGED) {
        // Not failures of a settle (CHANGED answers a record's compare and set).
        continue;
      }
      ApiException api = ErrorMapper.toApiException(failure);
      assertThat(api.code()).as(code.name()).isNotEqualTo(ErrorCode.INTERNAL);
      assertThat(api.status()).as(code.name()).isBetween(400, 499);
    }
  }

  @Test
  void aPayloadOverItsLimitIs413NamingTheField() {
    ApiException api =
        ErrorMapper.toApiException(new PayloadTooLargeException("result", 1024, 2048));
    assertThat(api.code()).isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE);
    assertThat(api.status()).isEqualTo(413);
    assertThat(api.field()).isEqualTo("result");
  }

  @Test
  void aMessageThatMentionsBytesOrOomDecidesNothing() {
    assertThat(
            ErrorMapper.toApiException(
                    new io.lineup.core.model.InvalidArgumentException("payload", "must be 5 bytes"))
                .code())
        .isEqualTo(ErrorCode.INVALID_FIELD);
    assertThat(ErrorMapper.toApiException(new LineupException("OOM in the message")).code())
        .isEqualTo(ErrorCode.INTERNAL);
  }

  @Test
  void redisOutOfMemoryIs503WithRetryAfter() {
    ApiException api =
        ErrorMapper.toApiException(new RedisOutOfMemoryException("maxmemory reached", null));
    assertThat(api.code()).isEqualTo(ErrorCode.REDIS_OUT_OF_MEMORY);
    assertThat(api.status()).isEqualTo(503);
    assertThat(api.headers()).containsKey("Retry-After");
  }

  @Test
  void aWriteToAClientThatWentAwayIsToldApartFromAServerFailure() {
    Throwable gone = new UncheckedIOException(new EofException(new IOException("Broken pipe")));
    assertThat(ErrorMapper.clientWentAway(gone)).isTrue();
    assertThat(ErrorMapper.clientWentAway(new UncheckedIOException(new IOException("disk"))))
        .isFalse();
    assertThat(ErrorMapper.clientWentAway(new IllegalStateException("bug"))).isFalse();
  }
}
