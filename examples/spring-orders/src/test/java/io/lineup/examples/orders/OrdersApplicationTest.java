package io.lineup.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.QueueName;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The orders service end to end on a real Redis, with a one-second unpaid window: an unpaid order
 * is closed by its job, a paid one is left alone, and a rolled-back order publishes nothing.
 */
@SpringBootTest(properties = {"orders.unpaid-window=1s", "lineup.worker.idle-wait=1s"})
@DirtiesContext
class OrdersApplicationTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static final QueueName CLOSE_QUEUE = QueueName.parse(Orders.CLOSE_QUEUE);

  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    registry.add("lineup.redis.url", redis::uri);
  }

  /**
   * Stops the application's workers while its Redis still runs (the extension stops Redis before
   * Spring closes the context): running jobs finish or go back to the line, as in production.
   */
  @AfterAll
  static void stopWorkers(@Autowired ConfigurableApplicationContext context) {
    context.stop();
  }

  @Autowired Orders orders;
  @Autowired Lineup lineup;

  @Test
  void anUnpaidOrderIsClosedByItsJobAfterTheWindowAndAPaidOneIsNot() {
    orders.place("1001", "book");
    orders.place("1002", "lamp");
    assertThat(orders.pay("1002")).isTrue();
    JobInfo pending = lineup.get(CLOSE_QUEUE, "close-1001").orElseThrow();
    assertThat(pending.state()).isEqualTo(JobState.DELAYED);

    await()
        .atMost(Duration.ofSeconds(15))
        .until(() ->
            jobState("close-1001") == JobState.DONE && jobState("close-1002") == JobState.DONE);
    assertThat(orders.status("1001")).contains("CLOSED");
    assertThat(orders.status("1002")).contains("PAID");
    JobInfo closed = lineup.get(CLOSE_QUEUE, "close-1001").orElseThrow();
    assertThat(Duration.between(closed.createdAt(), closed.startedAt()))
        .as("not closed before the window")
        .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aRolledBackOrderLeavesNoOrderAndNoCloseJob() {
    assertThatThrownBy(() -> orders.place("1003", Orders.SOLD_OUT))
        .isInstanceOf(OutOfStockException.class);

    assertThat(orders.status("1003")).isEmpty();
    assertThat(lineup.exists(CLOSE_QUEUE, "close-1003")).isFalse();
  }

  private JobState jobState(String id) {
    return lineup.get(CLOSE_QUEUE, id).map(JobInfo::state).orElse(null);
  }
}
