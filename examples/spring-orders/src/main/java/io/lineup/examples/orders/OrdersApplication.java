package io.lineup.examples.orders;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An orders service: an order left unpaid for {@code orders.unpaid-window} (30 minutes by default)
 * is closed by a Lineup job published in the same transaction that created the order.
 */
@SpringBootApplication
public class OrdersApplication {
  /** Starts the service; Redis from {@code lineup.redis.url} (default redis://127.0.0.1:6379). */
  public static void main(String[] args) {
    SpringApplication.run(OrdersApplication.class, args);
  }
}
