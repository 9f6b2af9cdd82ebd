package io.lineup.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a worker for a queue that calls the annotated bean method once per job. The worker starts
 * with the application context and stops with it: leasing stops, running jobs get the shutdown
 * grace ({@code lineup.worker.shutdown-grace}) to finish and are then given back to the line.
 *
 * <p>The method takes any of, in any order: the payload as a type (converted from JSON with the
 * context's Jackson mapper; {@code byte[]} and {@code String} take the bytes as they are), a {@link
 * HandledJob} (id, attempt, raw payload, the same in both modes), or the mode's own leased job
 * ({@code io.lineup.core.model.LeasedJob} embedded, {@code io.lineup.api.resource.LeasedJob} in
 * client mode). Returning acks the job; a {@code byte[]} or {@code String} return value is kept as
 * its result as is, any other non-null value as JSON. Throwing fails the job: it is retried after
 * the queue's backoff, or goes to dead letters when out of attempts.
 *
 * <pre>{@code
 * @LineupHandler(queue = "shop/close-unpaid", concurrency = "${shop.closers:4}")
 * void close(CloseOrder command, HandledJob job) { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LineupHandler {
  /**
   * The queue, {@code namespace/name}; placeholders ({@code ${...}}) are resolved.
   *
   * @return the queue's name
   */
  String queue();

  /**
   * Jobs handled at once, 1 to 10,000; placeholders are resolved. Empty: {@code
   * lineup.worker.concurrency}.
   *
   * @return the concurrency, as text
   */
  String concurrency() default "";
}
