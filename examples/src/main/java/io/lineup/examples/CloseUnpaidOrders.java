package io.lineup.examples;

import io.lineup.api.resource.LeasedJob;
import io.lineup.client.JobFinishedException;
import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.NotFoundException;
import io.lineup.client.QueueName;
import io.lineup.client.RemoteWorker;
import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Close an unpaid order 30 minutes after it was placed. Placing an order publishes a delayed job
 * whose id is the order's, so placing it twice is harmless; a payment cancels that job; a worker
 * closes the orders whose job came due.
 *
 * <p>Run: {@code LINEUP_URL=http://127.0.0.1:7700 LINEUP_TOKEN=... java ... CloseUnpaidOrders
 * [delay-seconds]} (default 1800).
 */
public final class CloseUnpaidOrders implements AutoCloseable {
  /** Where the close jobs wait. */
  public static final QueueName QUEUE = QueueName.of("shop", "close-unpaid");

  private final LineupClient client;
  private final Duration closeAfter;
  private final Set<String> closed = ConcurrentHashMap.newKeySet();
  private RemoteWorker closer;

  /**
   * @param client a client whose token may publish, cancel and consume in the shop namespace
   * @param closeAfter how long an order may stay unpaid (30 minutes in the shop; a second in tests)
   */
  public CloseUnpaidOrders(LineupClient client, Duration closeAfter) {
    this.client = client;
    this.closeAfter = closeAfter;
  }

  /** A new order: its close job falls due after the unpaid window. */
  public void orderPlaced(String orderId) {
    client.publish(
        QUEUE,
        NewJob.ofJson("{\"order\":\"" + orderId + "\"}").id("order-" + orderId).delay(closeAfter));
  }

  /**
   * The order was paid: cancel its close job.
   *
   * @return true when the job was cancelled in time, false when the order was already closed
   */
  public boolean paymentReceived(String orderId) {
    try {
      client.cancel(QUEUE, "order-" + orderId);
      return true;
    } catch (JobFinishedException | NotFoundException tooLate) {
      return false;
    }
  }

  /** Starts the worker that closes the orders whose job came due. */
  public void startCloser() {
    JobHandler<LeasedJob> closeOrder =
        job -> {
          String orderId = job.id().substring("order-".length());
          closed.add(orderId); // a real shop marks the order closed in its database here
          System.out.println("closed unpaid order " + orderId);
          return ("{\"closed\":\"" + orderId + "\"}")
              .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        };
    closer = client.worker(QUEUE, closeOrder, WorkerOptions.defaults().withConcurrency(4)).start();
  }

  /** The orders closed so far by this process. */
  public Set<String> closedOrders() {
    return Set.copyOf(closed);
  }

  @Override
  public void close() {
    if (closer != null) {
      closer.close();
    }
  }

  /** Places three orders, pays one, and waits for the other two to be closed. */
  public static void main(String[] args) throws InterruptedException {
    Duration delay = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 1800);
    try (LineupClient client =
            LineupClient.connect(
                System.getenv().getOrDefault("LINEUP_URL", "http://127.0.0.1:7700"),
                System.getenv("LINEUP_TOKEN"));
        CloseUnpaidOrders shop = new CloseUnpaidOrders(client, delay)) {
      shop.startCloser();
      for (String order : List.of("1001", "1002", "1003")) {
        shop.orderPlaced(order);
      }
      System.out.println("order 1002 paid in time: " + shop.paymentReceived("1002"));
      while (shop.closedOrders().size() < 2) {
        Thread.sleep(100);
      }
      System.out.println("closed: " + shop.closedOrders());
    }
  }
}
