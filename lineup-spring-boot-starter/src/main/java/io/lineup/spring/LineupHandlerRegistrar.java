package io.lineup.spring;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;

/**
 * Finds the {@link LineupHandler} and {@link LineupSchedule} methods of every bean as the context
 * makes it, and resolves their placeholders; {@link LineupWorkers} starts them with the context.
 */
final class LineupHandlerRegistrar implements BeanPostProcessor {
  private final Environment environment;
  private final List<HandlerDefinition> definitions = new CopyOnWriteArrayList<>();

  LineupHandlerRegistrar(Environment environment) {
    this.environment = environment;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    Class<?> target = AopUtils.getTargetClass(bean);
    Map<Method, Boolean> methods =
        MethodIntrospector.selectMethods(
            target,
            (MethodIntrospector.MetadataLookup<Boolean>)
                method ->
                    AnnotatedElementUtils.hasAnnotation(method, LineupHandler.class)
                            || AnnotatedElementUtils.hasAnnotation(method, LineupSchedule.class)
                        ? Boolean.TRUE
                        : null);
    for (Method method : methods.keySet()) {
      definitions.add(define(bean, beanName, method));
    }
    return bean;
  }

  private HandlerDefinition define(Object bean, String beanName, Method method) {
    LineupHandler handler = AnnotatedElementUtils.findMergedAnnotation(method, LineupHandler.class);
    LineupSchedule schedule =
        AnnotatedElementUtils.findMergedAnnotation(method, LineupSchedule.class);
    String where = beanName + "." + method.getName();
    String queue = handler == null ? null : resolve(handler.queue());
    Integer concurrency = null;
    if (handler != null && !handler.concurrency().isBlank()) {
      String text = resolve(handler.concurrency());
      try {
        concurrency = Integer.valueOf(text.trim());
      } catch (NumberFormatException e) {
        throw new IllegalStateException(
            "@LineupHandler on " + where + ": concurrency '" + text + "' is not a number", e);
      }
    }
    HandlerDefinition.ScheduleDefinition scheduled = null;
    if (schedule != null) {
      String scheduleQueue = schedule.queue().isBlank() ? queue : resolve(schedule.queue());
      if (scheduleQueue == null) {
        throw new IllegalStateException(
            "@LineupSchedule on "
                + where
                + " names no queue and the method is not a @LineupHandler: give queue = ...");
      }
      String name = schedule.name().isBlank() ? where : resolve(schedule.name());
      scheduled =
          new HandlerDefinition.ScheduleDefinition(
              scheduleQueue,
              name,
              resolve(schedule.cron()),
              resolve(schedule.zone()),
              resolve(schedule.payload()));
    }
    Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
    return new HandlerDefinition(beanName, bean, invocable, queue, concurrency, scheduled);
  }

  private String resolve(String text) {
    return environment.resolveRequiredPlaceholders(text);
  }

  /** Every definition found so far. */
  List<HandlerDefinition> definitions() {
    return List.copyOf(definitions);
  }
}
