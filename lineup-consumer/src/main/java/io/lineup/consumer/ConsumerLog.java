package io.lineup.consumer;

import java.lang.System.Logger.Level;
import java.util.function.Supplier;

/**
 * Where a {@link ConsumerLoop} reports what it decided (a lease call that failed, a lease lost, a
 * job that could not be settled), so that each consumer logs under its own name and through its own
 * logging library.
 */
@FunctionalInterface
public interface ConsumerLog {
  /**
   * Logs one line.
   *
   * @param level how much it matters: {@code DEBUG}, {@code INFO} or {@code WARNING}
   * @param message the line, built only when it is logged
   */
  void log(Level level, Supplier<String> message);

  /** Logs with the JDK's {@link System.Logger} of the given name. */
  static ConsumerLog system(String name) {
    System.Logger logger = System.getLogger(name);
    return (level, message) -> {
      if (logger.isLoggable(level)) {
        logger.log(level, message.get());
      }
    };
  }
}
