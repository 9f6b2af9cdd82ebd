package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.ErrorCode;
import io.lineup.api.PublishFields;
import io.lineup.core.model.FairnessKey;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.NewJob;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.CompactJson;
import io.lineup.server.http.JsonFields;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/** Reads the jobs of a publish body: one object, or an array of 1 to 1,000 objects. */
final class NewJobReader {
  /** The field whose value is the job's payload as JSON, read as compact text. */
  static final String PAYLOAD = PublishFields.PAYLOAD;

  static final Set<String> FIELDS = PublishFields.ALL;

  /** Longest unique key read, in characters (the engine's limit is in bytes). */
  private static final int MAX_UNIQUE_KEY_CHARS = Limits.MAX_UNIQUE_KEY_BYTES;

  private final int maxPayloadBytes;

  NewJobReader(int maxPayloadBytes) {
    this.maxPayloadBytes = maxPayloadBytes;
  }

  /**
   * The jobs of a body; checks the caller may publish each one's priority.
   *
   * @throws ApiException on the first problem, naming its field ({@code jobs[i].field} in bulk)
   */
  List<NewJob> read(JsonNode body, Principal principal) {
    if (body.isArray()) {
      if (body.isEmpty() || body.size() > Limits.MAX_BATCH) {
        throw ApiException.invalidField(
            "jobs", "a bulk publish takes 1 to " + Limits.MAX_BATCH + " jobs, got " + body.size());
      }
      List<NewJob> jobs = new ArrayList<>(body.size());
      for (int i = 0; i < body.size(); i++) {
        JsonNode item = body.get(i);
        if (!item.isObject()) {
          throw ApiException.invalidField("jobs[" + i + "]", "must be a JSON object");
        }
        jobs.add(one(JsonFields.of(item, "jobs[" + i + "]", FIELDS), principal));
      }
      return jobs;
    }
    if (!body.isObject()) {
      throw new ApiException(
          ErrorCode.INVALID_JSON, null, "the body must be a job object or an array of them");
    }
    return List.of(one(JsonFields.of(body, "", FIELDS), principal));
  }

  private NewJob one(JsonFields f, Principal principal) {
    NewJob job = NewJob.of(payload(f));
    Integer priority =
        f.optionalInt(PublishFields.PRIORITY, Limits.MIN_PRIORITY, Limits.MAX_PRIORITY);
    if (priority != null) {
      if (priority > principal.maxPriority()) {
        throw new ApiException(
            ErrorCode.PRIORITY_NOT_ALLOWED,
            f.path(PublishFields.PRIORITY),
            "this token may publish with priority up to "
                + principal.maxPriority()
                + ", got "
                + priority);
      }
      job.priority(priority);
    } else if (principal.maxPriority() < 0) {
      throw new ApiException(
          ErrorCode.PRIORITY_NOT_ALLOWED,
          f.path(PublishFields.PRIORITY),
          "this token may publish with priority up to "
              + principal.maxPriority()
              + "; give a priority at or below it");
    }
    Long delay = f.optionalLong(PublishFields.DELAY_MS, 0, Limits.MAX_DELAY_MS);
    Long runAt = f.optionalLong(PublishFields.RUN_AT, 0, Long.MAX_VALUE / 2);
    if (delay != null && runAt != null) {
      throw ApiException.invalidField(
          f.path(PublishFields.RUN_AT), "give delay_ms or run_at, not both");
    }
    if (delay != null) {
      job.delay(Duration.ofMillis(delay));
    }
    if (runAt != null) {
      job.runAt(Instant.ofEpochMilli(runAt));
    }
    Integer maxAttempts = f.optionalInt(PublishFields.MAX_ATTEMPTS, 1, Limits.MAX_ATTEMPTS);
    if (maxAttempts != null) {
      job.maxAttempts(maxAttempts);
    }
    Long ttr = f.optionalLong(PublishFields.TTR_MS, Limits.MIN_TTR_MS, Limits.MAX_TTR_MS);
    if (ttr != null) {
      job.timeToRun(Duration.ofMillis(ttr));
    }
    Long ttl = f.optionalLong(PublishFields.TTL_MS, 1, Limits.MAX_TTL_MS);
    if (ttl != null) {
      job.ttl(Duration.ofMillis(ttl));
    }
    Long startBy = f.optionalLong(PublishFields.START_BY, 0, Long.MAX_VALUE / 2);
    Long startWithin = f.optionalLong(PublishFields.START_WITHIN_MS, 0, Limits.MAX_TTL_MS);
    if (startBy != null && startWithin != null) {
      throw ApiException.invalidField(
          f.path(PublishFields.START_WITHIN_MS), "give start_by or start_within_ms, not both");
    }
    if (startWithin != null) {
      // Relative to the server's receipt of the publish.
      startBy = System.currentTimeMillis() + startWithin;
    }
    if (startBy != null) {
      job.startBy(Instant.ofEpochMilli(startBy));
    }
    String id = f.optionalText(PublishFields.ID, Limits.MAX_ID_LENGTH);
    if (id != null) {
      job.id(id);
    }
    String uniqueKey = f.optionalText(PublishFields.UNIQUE_KEY, MAX_UNIQUE_KEY_CHARS);
    Long window = f.optionalLong(PublishFields.UNIQUE_WINDOW_MS, 1, Limits.MAX_UNIQUE_WINDOW_MS);
    if (uniqueKey != null) {
      if (window == null) {
        throw ApiException.invalidField(
            f.path(PublishFields.UNIQUE_WINDOW_MS), "is required with unique_key");
      }
      job.uniqueKey(uniqueKey, Duration.ofMillis(window));
    } else if (window != null) {
      throw ApiException.invalidField(
          f.path(PublishFields.UNIQUE_KEY), "is required with unique_window_ms");
    }
    String key = f.optionalText(PublishFields.KEY, FairnessKey.MAX_LENGTH);
    if (key != null) {
      job.key(fairnessKey(f, key));
    }
    return job;
  }

  /**
   * A job's fairness key, checked here so the 400 names the body's field ({@code jobs[3].key}).
   *
   * @throws ApiException 400 naming the field when the key breaks {@link FairnessKey}'s rule
   */
  private static String fairnessKey(JsonFields f, String key) {
    try {
      return FairnessKey.check(PublishFields.KEY, key);
    } catch (InvalidArgumentException e) {
      throw ApiException.invalidField(f.path(PublishFields.KEY), e.reason());
    }
  }

  /**
   * The payload of a job object: {@code payload} (any JSON value, kept compact) or {@code
   * payload_base64}, within the payload limit.
   *
   * @throws ApiException 400 naming the field, 413 {@code payload_too_large}
   */
  byte[] payload(JsonFields f) {
    JsonNode json = f.has(PAYLOAD) ? f.raw(PAYLOAD) : null;
    boolean hasBase64 = f.has(PublishFields.PAYLOAD_BASE64);
    if (json != null && hasBase64) {
      throw ApiException.invalidField(
          f.path(PublishFields.PAYLOAD_BASE64), "give payload or payload_base64, not both");
    }
    byte[] bytes;
    String field;
    if (json != null) {
      bytes = CompactJson.bytesOf(json);
      field = f.path(PAYLOAD);
    } else if (hasBase64) {
      String text = f.optionalText(PublishFields.PAYLOAD_BASE64, Integer.MAX_VALUE);
      try {
        bytes = Base64.getDecoder().decode(text);
      } catch (IllegalArgumentException e) {
        throw ApiException.invalidField(
            f.path(PublishFields.PAYLOAD_BASE64), "is not valid base64");
      }
      field = f.path(PublishFields.PAYLOAD_BASE64);
    } else {
      throw ApiException.invalidField(
          f.path(PAYLOAD), "is required: any JSON value, or payload_base64 for raw bytes");
    }
    if (bytes.length > maxPayloadBytes) {
      throw new ApiException(
          ErrorCode.PAYLOAD_TOO_LARGE,
          field,
          "the payload is " + bytes.length + " bytes, over the limit of " + maxPayloadBytes);
    }
    return bytes;
  }
}
