package io.lineup.examples.orders;

import io.lineup.spring.LineupPublisher;
import io.lineup.spring.PublishOptions;
import java.time.Duration;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Places, pays and closes orders in one table. Placing an order publishes its close job inside the
 * order's transaction: the starter sends it after the commit, so an order that is rolled back (its
 * item sold out) never gets a close job.
 */
@Service
public class Orders {
  /** The queue of the close jobs. */
  public static final String CLOSE_QUEUE = "shop/close-unpaid";

  /** The item that is always sold out, so the example can show a rollback. */
  public static final String SOLD_OUT = "sold-out";

  private final JdbcClient jdbc;
  private final LineupPublisher lineup;
  private final Duration unpaidWindow;

  Orders(
      JdbcClient jdbc,
      LineupPublisher lineup,
      @Value("${orders.unpaid-window:30m}") Duration unpaidWindow) {
    this.jdbc = jdbc;
    this.lineup = lineup;
    this.unpaidWindow = unpaidWindow;
  }

  /**
   * Creates an unpaid order and its close job, due after the unpaid window; the job's id is derived
   * from the order's, so placing the same order twice makes one job.
   *
   * @throws OutOfStockException when the item is sold out (nothing is kept, no job is published)
   */
  @Transactional
  public void place(String orderId, String sku) {
    jdbc.sql("INSERT INTO orders (id, sku, status) VALUES (?, ?, 'UNPAID')")
        .params(orderId, sku)
        .update();
    lineup.publish(
        CLOSE_QUEUE,
        new CloseUnpaid(orderId),
        PublishOptions.defaults().withId("close-" + orderId).withDelay(unpaidWindow));
    // Stock is checked last, so a sold-out item shows the rollback dropping the publish above.
    if (SOLD_OUT.equals(sku)) {
      throw new OutOfStockException(sku);
    }
  }

  /** Marks an unpaid order paid; returns false when it was not unpaid (closed already, unknown). */
  @Transactional
  public boolean pay(String orderId) {
    return jdbc.sql("UPDATE orders SET status = 'PAID' WHERE id = ? AND status = 'UNPAID'")
            .param(orderId)
            .update()
        == 1;
  }

  /** Closes the order when it is still unpaid; returns whether it did. */
  @Transactional
  public boolean closeIfUnpaid(String orderId) {
    return jdbc.sql("UPDATE orders SET status = 'CLOSED' WHERE id = ? AND status = 'UNPAID'")
            .param(orderId)
            .update()
        == 1;
  }

  /** The order's status (UNPAID, PAID, CLOSED), or empty when there is no such order. */
  public Optional<String> status(String orderId) {
    return jdbc.sql("SELECT status FROM orders WHERE id = ?")
        .param(orderId)
        .query(String.class)
        .optional();
  }
}
