package io.lineup.spring;

import java.lang.reflect.Method;

/**
 * A {@link LineupHandler} or {@link LineupSchedule} found on a bean, its placeholders resolved.
 *
 * @param beanName the bean's name
 * @param bean the bean (its proxy, when it has one)
 * @param method the method to call, invocable on {@code bean}
 * @param queue the handler's queue, or null when the method only declares a schedule
 * @param concurrency the handler's concurrency, or null for the default
 * @param schedule the schedule declared on the method, or null
 */
record HandlerDefinition(
    String beanName,
    Object bean,
    Method method,
    String queue,
    Integer concurrency,
    ScheduleDefinition schedule) {

  /**
   * A {@link LineupSchedule}, its placeholders resolved.
   *
   * @param queue its queue
   * @param name its name
   * @param cron its expression
   * @param zone its zone id
   * @param payload the jobs' payload text
   */
  record ScheduleDefinition(String queue, String name, String cron, String zone, String payload) {}
}
