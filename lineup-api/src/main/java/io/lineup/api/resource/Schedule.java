package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A recurring schedule as it stands ({@code GET /v1/queues/{ns}/{queue}/schedules/{name}} or {@code
 * GET /v1/endpoints/{ns}/{endpoint}/schedules/{name}}, schema {@code Schedule}): what it was put
 * with, where it is, and its latest runs. Every field is present, null when it does not apply: a
 * queue's schedule has {@code queue} and {@code job}, an endpoint's {@code endpoint} and {@code
 * task}; a cron schedule has {@code cron} and {@code zone}, an interval schedule {@code every_ms}.
 *
 * <p>As everywhere in the API, its times are epoch milliseconds in fields ending {@code _at}.
 *
 * @param namespace its namespace
 * @param queue the queue its jobs are published to (its name within the namespace), or null for an
 *     endpoint's schedule
 * @param endpoint the endpoint its tasks are submitted to, or null for a queue's schedule
 * @param name its name, unique in its queue or endpoint
 * @param cron its six-field cron expression, or null for an interval schedule
 * @param zone the IANA zone its cron expression is read in, or null for an interval schedule
 * @param everyMs the interval between its ticks, in milliseconds, or null for a cron schedule
 * @param job the job each tick publishes, or null for an endpoint's schedule
 * @param task the task each tick submits, or null for a queue's schedule
 * @param startAt no tick before this time, epoch milliseconds, or null
 * @param endAt no tick after this time, epoch milliseconds, or null
 * @param maxRuns it ends after this many published jobs, or null for never
 * @param jitterMs each job is due a random 0 to this many milliseconds after its tick
 * @param paused whether it is paused
 * @param missed what it does with missed ticks: {@code skip}, {@code catch_up} or {@code none}
 * @param catchUpMax the most jobs {@code catch_up} publishes for missed ticks
 * @param historySize how many runs its history keeps
 * @param nextTickAt when its next job is due (before jitter), epoch milliseconds, or null when
 *     paused or ended
 * @param runs how many jobs it published so far
 * @param lastTickAt the tick of its latest run, epoch milliseconds, or null before the first
 * @param state {@code active}, {@code paused} or {@code ended}
 * @param version how many times it was put (1 after the first); pause and resume do not count
 * @param history its latest runs, newest first
 */
@JsonPropertyOrder({
  "namespace",
  "queue",
  "endpoint",
  "name",
  "cron",
  "zone",
  "every_ms",
  "job",
  "task",
  "start_at",
  "end_at",
  "max_runs",
  "jitter_ms",
  "paused",
  "missed",
  "catch_up_max",
  "history_size",
  "next_tick_at",
  "runs",
  "last_tick_at",
  "state",
  "version",
  "history"
})
public record Schedule(
    @JsonProperty("namespace") String namespace,
    @JsonProperty("queue") String queue,
    @JsonProperty("endpoint") String endpoint,
    @JsonProperty("name") String name,
    @JsonProperty("cron") String cron,
    @JsonProperty("zone") String zone,
    @JsonProperty("every_ms") Long everyMs,
    @JsonProperty("job") Job job,
    @JsonProperty("task") TaskTemplate task,
    @JsonProperty("start_at") Long startAt,
    @JsonProperty("end_at") Long endAt,
    @JsonProperty("max_runs") Long maxRuns,
    @JsonProperty("jitter_ms") long jitterMs,
    @JsonProperty("paused") boolean paused,
    @JsonProperty("missed") String missed,
    @JsonProperty("catch_up_max") int catchUpMax,
    @JsonProperty("history_size") int historySize,
    @JsonProperty("next_tick_at") Long nextTickAt,
    @JsonProperty("runs") long runs,
    @JsonProperty("last_tick_at") Long lastTickAt,
    @JsonProperty("state") String state,
    @JsonProperty("version") long version,
    @JsonProperty("history") List<Run> history) {

  /**
   * The job a queue's schedule publishes at every tick. The payload is JSON under {@code payload}
   * or base64 under {@code payload_base64}; the other is absent.
   *
   * @param payload the payload when it is one JSON value, else null (absent)
   * @param payloadBase64 the payload's bytes in base64 when they are not JSON, else null (absent)
   * @param priority the jobs' priority
   * @param key a key kept with the schedule for fair queues, or null
   * @param ttlMs the jobs' time to live, in milliseconds, or null for none
   * @param maxAttempts the jobs' deliveries before dead letters, or null for the queue's setting
   * @param ttrMs the jobs' lease length, in milliseconds, or null for the queue's setting
   */
  @JsonPropertyOrder({
    "payload",
    "payload_base64",
    "priority",
    "key",
    "ttl_ms",
    "max_attempts",
    "ttr_ms"
  })
  public record Job(
      @JsonProperty("payload") @JsonInclude(JsonInclude.Include.NON_NULL) JsonText payload,
      @JsonProperty("payload_base64") @JsonInclude(JsonInclude.Include.NON_NULL)
          String payloadBase64,
      @JsonProperty("priority") int priority,
      @JsonProperty("key") String key,
      @JsonProperty("ttl_ms") Long ttlMs,
      @JsonProperty("max_attempts") Integer maxAttempts,
      @JsonProperty("ttr_ms") Long ttrMs) {

    /**
     * The payload's bytes, from either form.
     *
     * @throws IllegalArgumentException when {@code payloadBase64} is not base64
     */
    public byte[] payloadBytes() {
      return JsonText.bytes(payload, payloadBase64);
    }
  }

  /**
   * The task an endpoint's schedule submits at every tick: the request as a task submit gives it.
   * The body is JSON under {@code body}, text under {@code body_text} or base64 under {@code
   * body_base64}; the others are absent, all three when there is no body.
   *
   * @param method the HTTP method
   * @param path the path and query under the endpoint's base URL
   * @param headers the headers sent, by name as given
   * @param contentType the body's content type, or null without a body
   * @param body the body when it is JSON, else null (absent)
   * @param bodyText the body when it is text, else null (absent)
   * @param bodyBase64 the body's bytes in base64 when they are neither, else null (absent)
   * @param callbackUrl where each task's final record is POSTed, or null
   * @param priority the tasks' priority
   */
  @JsonPropertyOrder({
    "method",
    "path",
    "headers",
    "content_type",
    "body",
    "body_text",
    "body_base64",
    "callback_url",
    "priority"
  })
  public record TaskTemplate(
      @JsonProperty("method") String method,
      @JsonProperty("path") String path,
      @JsonProperty("headers") Map<String, String> headers,
      @JsonProperty("content_type") String contentType,
      @JsonProperty("body") @JsonInclude(JsonInclude.Include.NON_NULL) JsonText body,
      @JsonProperty("body_text") @JsonInclude(JsonInclude.Include.NON_NULL) String bodyText,
      @JsonProperty("body_base64") @JsonInclude(JsonInclude.Include.NON_NULL) String bodyBase64,
      @JsonProperty("callback_url") String callbackUrl,
      @JsonProperty("priority") int priority) {

    /**
     * The body's bytes, from any of its forms, or null when there is none.
     *
     * @throws IllegalArgumentException when {@code bodyBase64} is not base64
     */
    public byte[] bodyBytes() {
      if (bodyText != null) {
        return bodyText.getBytes(StandardCharsets.UTF_8);
      }
      return JsonText.bytes(body, bodyBase64);
    }
  }

  /**
   * One entry of a schedule's history: what happened at one tick.
   *
   * @param tickAt the tick's time (before jitter), epoch milliseconds
   * @param jobId the id of the tick's job (of the task, for an endpoint's schedule); for {@code
   *     skipped_missed} the id it would have had
   * @param outcome {@code published}, {@code skipped_missed} or {@code duplicate}
   * @param publishedAt when Lineup decided the tick, on the Redis server's clock, epoch
   *     milliseconds
   */
  @JsonPropertyOrder({"tick_at", "job_id", "outcome", "published_at"})
  public record Run(
      @JsonProperty("tick_at") long tickAt,
      @JsonProperty("job_id") String jobId,
      @JsonProperty("outcome") String outcome,
      @JsonProperty("published_at") long publishedAt) {}
}
