package io.lineup.examples.orders;

import io.lineup.redis.RedisProcess;
import io.lineup.spring.LineupPublisher;
import io.lineup.spring.PublishReceipt;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Measures one start of the orders application in this JVM, with the Lineup starter ({@code with})
 * or without it ({@code without}: its auto-configurations excluded and a publisher that does
 * nothing in its place), and prints the milliseconds from {@code run} to a started context. Not a
 * test: docs/spring.md gives the command that runs it several times in fresh JVMs.
 */
public final class StartupTime {
  private StartupTime() {}

  /**
   * Starts and stops the application once.
   *
   * @param args {@code with} or {@code without}
   */
  public static void main(String[] args) {
    boolean with = args.length > 0 && args[0].equals("with");
    try (RedisProcess redis = RedisProcess.builder().build().start()) {
      SpringApplicationBuilder application =
          new SpringApplicationBuilder(OrdersApplication.class)
              .properties("lineup.redis.url=" + redis.uri(), "logging.level.root=WARN");
      if (!with) {
        application
            .properties(
                "spring.autoconfigure.exclude="
                    + "io.lineup.spring.LineupAutoConfiguration,"
                    + "io.lineup.spring.LineupHealthAutoConfiguration,"
                    + "io.lineup.spring.LineupMetricsAutoConfiguration")
            .initializers(context ->
                ((ConfigurableApplicationContext) context)
                    .getBeanFactory()
                    .registerSingleton(
                        "noPublisher",
                        (LineupPublisher)
                            (queue, payload, options) ->
                                new PublishReceipt(queue, options.id(), true, false)));
      }
      long start = System.nanoTime();
      try (ConfigurableApplicationContext context = application.run()) {
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println((with ? "with" : "without") + " starter: " + millis + " ms");
      }
    }
  }
}
