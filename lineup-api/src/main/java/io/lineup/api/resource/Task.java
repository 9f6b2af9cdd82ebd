package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonView;
import java.util.List;

/**
 * A dispatch task as it stands ({@code GET /v1/endpoints/{ns}/{endpoint}/tasks/{id}}, schema {@code
 * Task}). Every field is present, null when unknown. The server writes it with a JSON view ({@link
 * #fieldsOf}): a submit whose task's record could not be read back has only {@code id}, {@code
 * endpoint}, {@code status}, {@code position} and the ETA ({@link Brief}); a job in an endpoint's
 * queue that is not a task has no {@code path}, {@code callback_url} or {@code delivery_key}
 * ({@link Detailed}); any other task has every field ({@link Full}).
 *
 * @param id its id
 * @param endpoint its endpoint's name within the namespace
 * @param status where it is in its life
 * @param priority its priority
 * @param position its place in the endpoint's line (0 = next), or -1 when not waiting in line
 * @param etaMs the expected wait until it is sent, in milliseconds, or null
 * @param etaLowMs the band's low end, in milliseconds; null with {@code etaMs}
 * @param etaHighMs the band's high end, in milliseconds; null with {@code etaMs}
 * @param createdAt when it was submitted, epoch milliseconds
 * @param dueAt when it is or was due, epoch milliseconds
 * @param startedAt when its last request was sent, epoch milliseconds, or null
 * @param finishedAt when it ended, epoch milliseconds, or null
 * @param attempts the requests sent (the latest 20)
 * @param maxAttempts requests allowed
 * @param response the endpoint's response once it ended, or null
 * @param error why it failed or timed out, or null
 * @param method the request's method
 * @param path the request's path and query
 * @param callbackUrl the URL called when it ends, or null
 * @param deliveryKey the {@code Idempotency-Key} its requests carry: a random UUID drawn at submit,
 *     shared by no other task
 * @param key its fairness key: the customer, tenant or user it is sent for, or null for none
 */
@JsonPropertyOrder({
  "id",
  "endpoint",
  "status",
  "priority",
  "position",
  "eta_ms",
  "eta_low_ms",
  "eta_high_ms",
  "created_at",
  "due_at",
  "started_at",
  "finished_at",
  "attempts",
  "max_attempts",
  "response",
  "error",
  "method",
  "path",
  "callback_url",
  "delivery_key",
  "key"
})
public record Task(
    @JsonProperty("id") String id,
    @JsonProperty("endpoint") String endpoint,
    @JsonProperty("status") TaskStatus status,
    @JsonProperty("priority") @JsonView(Detailed.class) Integer priority,
    @JsonProperty("position") long position,
    @JsonProperty("eta_ms") Long etaMs,
    @JsonProperty("eta_low_ms") Long etaLowMs,
    @JsonProperty("eta_high_ms") Long etaHighMs,
    @JsonProperty("created_at") @JsonView(Detailed.class) Long createdAt,
    @JsonProperty("due_at") @JsonView(Detailed.class) Long dueAt,
    @JsonProperty("started_at") @JsonView(Detailed.class) Long startedAt,
    @JsonProperty("finished_at") @JsonView(Detailed.class) Long finishedAt,
    @JsonProperty("attempts") @JsonView(Detailed.class) List<TaskAttempt> attempts,
    @JsonProperty("max_attempts") @JsonView(Detailed.class) Integer maxAttempts,
    @JsonProperty("response") @JsonView(Detailed.class) TaskResponse response,
    @JsonProperty("error") @JsonView(Detailed.class) String error,
    @JsonProperty("method") @JsonView(Detailed.class) String method,
    @JsonProperty("path") @JsonView(Full.class) String path,
    @JsonProperty("callback_url") @JsonView(Full.class) String callbackUrl,
    @JsonProperty("delivery_key") @JsonView(Full.class) String deliveryKey,
    @JsonProperty("key") @JsonView(Detailed.class) String key) {

  /** The JSON view of the fields known without the task's record: id, endpoint, status, place. */
  public interface Brief {}

  /** The JSON view of a task's record without its request (a job that is not a task). */
  public interface Detailed {}

  /** The JSON view of every field of a task. */
  public interface Full extends Detailed {}

  /**
   * The JSON view that writes a task as the server answers it: give it to a writer ({@code
   * mapper.writerWithView(Task.fieldsOf(true, true))}).
   *
   * @param detailed whether the task's record was read (else only {@link Brief}'s fields)
   * @param request whether the record holds a task's request (else no path, callback or key)
   */
  public static Class<?> fieldsOf(boolean detailed, boolean request) {
    return !detailed ? Brief.class : request ? Full.class : Detailed.class;
  }
}
