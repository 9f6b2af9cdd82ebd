package io.lineup.examples.orders;

import io.lineup.spring.HandledJob;
import io.lineup.spring.LineupHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Closes the orders whose close job came due. A job may be delivered twice (at least once); the
 * close is idempotent, since only an unpaid order is closed.
 */
@Component
public class UnpaidOrderCloser {
  private static final Logger LOG = LoggerFactory.getLogger(UnpaidOrderCloser.class);

  private final Orders orders;

  UnpaidOrderCloser(Orders orders) {
    this.orders = orders;
  }

  /** Closes the order if it is still unpaid; a paid order is left as it is. */
  @LineupHandler(queue = Orders.CLOSE_QUEUE, concurrency = "${orders.closers:4}")
  public void close(CloseUnpaid command, HandledJob job) {
    boolean closed = orders.closeIfUnpaid(command.orderId());
    LOG.info(
        "Order {} {} (job {}, attempt {})",
        command.orderId(),
        closed ? "closed: unpaid" : "left alone: paid",
        job.id(),
        job.attempt());
  }
}
