package io.lineup.dispatch;

import io.lineup.core.model.Eta;
import java.time.Instant;
import java.util.List;

/**
 * A task as it stands. Times are epoch instants; null where they have not happened.
 *
 * @param id the task id
 * @param endpoint its endpoint
 * @param status where it stands
 * @param priority its priority
 * @param position its place in line (0 when not waiting)
 * @param eta the engine's estimate of its start while it is due and waiting, else null
 * @param createdAt when it was submitted
 * @param dueAt when it is (or was) due
 * @param startedAt when its last attempt started
 * @param finishedAt when it ended
 * @param attempts its requests so far, oldest first (the latest {@link Attempt#MAX_HISTORY})
 * @param maxAttempts requests before it fails
 * @param response the last answer kept, or null
 * @param error why it did not succeed, or null
 * @param request the request it sends (no headers or body), or null when the job in the endpoint's
 *     queue is not a task
 * @param detailed false for a task just submitted whose record could not be read back: then only
 *     id, endpoint, status and position are known
 * @param key its fairness key (whom it is sent for), or null for none
 */
public record Task(
    String id,
    EndpointKey endpoint,
    TaskStatus status,
    int priority,
    long position,
    Eta eta,
    Instant createdAt,
    Instant dueAt,
    Instant startedAt,
    Instant finishedAt,
    List<Attempt> attempts,
    int maxAttempts,
    TaskResponse response,
    String error,
    Target request,
    boolean detailed,
    String key) {

  /**
   * What a task sends, as shown with it.
   *
   * @param method the HTTP method
   * @param path the path and query under the endpoint's base URL
   * @param callbackUrl where its end is reported, or null
   * @param deliveryKey the {@code Idempotency-Key} of its requests
   */
  public record Target(String method, String path, String callbackUrl, String deliveryKey) {}

  /** Whether it has ended (nothing more will be sent). */
  public boolean finished() {
    return switch (status) {
      case QUEUED, RUNNING -> false;
      default -> true;
    };
  }
}
