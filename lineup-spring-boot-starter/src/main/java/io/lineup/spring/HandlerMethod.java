package io.lineup.spring;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.Type;

/**
 * One {@link LineupHandler} bean method made callable for a job: how each parameter is bound, and
 * how the return value becomes the job's result. The binding is worked out once, at start-up, so a
 * method the starter cannot call fails the application's start rather than every job.
 */
final class HandlerMethod {
  private final Object bean;
  private final Method method;
  private final Binder[] binders;
  private final PayloadCodec codec;

  /**
   * Works out the parameters' binding.
   *
   * @throws IllegalStateException when a method has two payload parameters
   */
  HandlerMethod(Object bean, Method method, PayloadCodec codec) {
    this.bean = bean;
    this.method = method;
    this.codec = codec;
    Parameter[] parameters = method.getParameters();
    this.binders = new Binder[parameters.length];
    boolean payloadTaken = false;
    for (int i = 0; i < parameters.length; i++) {
      Class<?> type = parameters[i].getType();
      if (type == HandledJob.class) {
        binders[i] = (job, leased) -> job;
      } else if (type == io.lineup.core.model.LeasedJob.class
          || type == io.lineup.api.resource.LeasedJob.class) {
        binders[i] = (job, leased) -> modeJob(type, leased);
      } else {
        if (payloadTaken) {
          throw new IllegalStateException(
              describe() + " takes two payload parameters; a handler takes at most one payload");
        }
        payloadTaken = true;
        Type generic = parameters[i].getParameterizedType();
        binders[i] = (job, leased) -> Payloads.decode(job.payload(), generic, codec);
      }
    }
    method.setAccessible(true);
  }

  /** Makes one argument from the job. */
  @FunctionalInterface
  private interface Binder {
    Object apply(HandledJob job, Object leasedJob);
  }

  private Object modeJob(Class<?> type, Object leased) {
    if (!type.isInstance(leased)) {
      throw new IllegalStateException(
          describe()
              + " takes "
              + type.getName()
              + ", which this mode does not lease; take HandledJob to run in both modes");
    }
    return leased;
  }

  /**
   * Calls the method for a job.
   *
   * @return the job's result, or null for none
   * @throws Exception what the method threw (the job fails and is retried by the queue's policy)
   */
  byte[] invoke(HandledJob job, Object leasedJob) throws Exception {
    Object[] args = new Object[binders.length];
    for (int i = 0; i < binders.length; i++) {
      args[i] = binders[i].apply(job, leasedJob);
    }
    Object result;
    try {
      result = method.invoke(bean, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
    return result == null ? null : Payloads.encode(result, codec);
  }

  /** {@code BeanClass.method} for messages. */
  String describe() {
    return method.getDeclaringClass().getSimpleName() + "." + method.getName();
  }
}
