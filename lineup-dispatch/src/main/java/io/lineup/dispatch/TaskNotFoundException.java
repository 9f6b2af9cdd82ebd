package io.lineup.dispatch;

/** No task of this id at an endpoint, neither in Redis nor in the archive. */
public final class TaskNotFoundException extends DispatchException {
  /**
   * @param key the endpoint
   * @param id the task id asked for
   */
  public TaskNotFoundException(EndpointKey key, String id) {
    super("no task " + id + " at endpoint " + key.name());
  }
}
