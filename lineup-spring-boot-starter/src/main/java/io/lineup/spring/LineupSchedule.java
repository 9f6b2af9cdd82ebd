package io.lineup.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a recurring schedule that publishes one job per tick to a queue (docs/schedules.md),
 * created or updated in place when the application context starts, so changing the expression in
 * the configuration and restarting moves the schedule. On a method that is also a {@link
 * LineupHandler} the queue defaults to the handler's. Off with {@code
 * lineup.schedules.enabled=false}.
 *
 * <pre>{@code
 * @LineupSchedule(cron = "${reports.cron:0 0 2 * * *}", zone = "Europe/Paris")
 * @LineupHandler(queue = "reports/nightly")
 * void nightly(HandledJob job) { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LineupSchedule {
  /**
   * Six-field cron expression ({@code seconds minutes hours day-of-month month day-of-week});
   * placeholders are resolved.
   *
   * @return the expression
   */
  String cron();

  /**
   * The zone the expression is read in, e.g. {@code Europe/Paris}; placeholders are resolved.
   *
   * @return the zone id, {@code UTC} by default
   */
  String zone() default "UTC";

  /**
   * The queue the ticks' jobs go to, {@code namespace/name}; empty for the {@link LineupHandler}'s
   * queue on the same method. Placeholders are resolved.
   *
   * @return the queue's name
   */
  String queue() default "";

  /**
   * The schedule's name, unique in its queue (1 to 128 of {@code A-Z a-z 0-9 . _ - :}); empty for
   * {@code beanName.methodName}. Placeholders are resolved.
   *
   * @return the name
   */
  String name() default "";

  /**
   * The payload of every tick's job, as UTF-8 text (JSON for a typed handler); placeholders are
   * resolved.
   *
   * @return the payload, empty by default
   */
  String payload() default "";
}
