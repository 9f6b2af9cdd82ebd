package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.InvalidArgumentException;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A record collection given a time to live goes by itself once nobody renews it. */
abstract class RecordExpiryTest extends EngineSuite {
  private Lineup lineup;
  private RecordStore store;

  @BeforeEach
  void connect() {
    lineup = anEngine(options -> options);
    store = lineup.records("expiry-" + UUID.randomUUID());
  }

  @AfterEach
  void close() {
    lineup.close();
  }

  @Test
  void aCollectionThatIsNotRenewedIsDeletedAfterItsTimeToLive() {
    store.put("a", "1");
    store.put("b", "2");
    assertThat(store.all()).containsOnlyKeys("a", "b");

    assertThat(store.expireAfter(Duration.ofMillis(300))).isTrue();

    await().atMost(Duration.ofSeconds(10)).until(() -> store.all().isEmpty());
  }

  @Test
  void renewingTheTimeToLiveKeepsTheCollection() {
    store.put("a", "1");
    store.expireAfter(Duration.ofSeconds(1));
    store.expireAfter(Duration.ofMinutes(1));

    // Past the first time to live (twice over), the collection is still there.
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(10))
        .until(() -> store.get("a").isPresent());
  }

  @Test
  void anEmptyCollectionHasNothingToExpire() {
    assertThat(store.expireAfter(Duration.ofSeconds(1))).isFalse();
  }

  @Test
  void aTimeToLiveUnderOneMillisecondIsRefused() {
    assertThatThrownBy(() -> store.expireAfter(Duration.ZERO))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("ttl");
    assertThatThrownBy(() -> store.expireAfter(null)).isInstanceOf(InvalidArgumentException.class);
  }
}
