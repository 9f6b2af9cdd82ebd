package io.lineup.core.internal.maintenance;

import io.lineup.core.internal.store.RedisStore;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A background loop on a virtual thread: one round, a pause, again, until closed. A round that
 * fails is logged and the loop goes on; while Redis is unreachable it waits quietly.
 */
public abstract class PeriodicTask implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PeriodicTask.class);
  private final String name;
  private final Duration interval;
  private volatile boolean running;
  private Thread thread;

  protected PeriodicTask(String name, Duration interval) {
    this.name = name;
    this.interval = interval;
  }

  /** One round. */
  protected abstract void runOnce();

  /** Starts the loop; idempotent. */
  public synchronized void start() {
    if (running) {
      return;
    }
    running = true;
    thread = Thread.ofVirtual().name("lineup-" + name).start(this::loop);
  }

  private void loop() {
    while (running) {
      try {
        runOnce();
      } catch (RuntimeException e) {
        if (RedisStore.isUnreachable(e)) {
          LOG.debug("{}: Redis unavailable, will retry: {}", name, e.getMessage());
        } else {
          LOG.warn("{}: round failed", name, e);
        }
      }
      try {
        Thread.sleep(interval);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Stops the loop and waits for the current round to end. */
  @Override
  public synchronized void close() {
    running = false;
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join(Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
