package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.archive.ArchivePage;
import io.lineup.archive.ArchiveQuery;
import io.lineup.archive.ArchiveReader;
import io.lineup.archive.ArchivedJob;
import io.lineup.core.model.JobState;
import io.lineup.core.model.QueueName;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** {@code GET /v1/archive/{ns}}: the namespace's archived jobs, newest end first, by cursor. */
public final class ArchiveHandlers {
  /** Rows per page when the request names no limit. */
  public static final int DEFAULT_LIMIT = 100;

  private static final List<JobState> ENDED =
      List.of(JobState.DONE, JobState.DEAD, JobState.CANCELLED, JobState.EXPIRED);

  private final ApiContext api;

  public ArchiveHandlers(ApiContext api) {
    this.api = api;
  }

  /**
   * Lists with the query parameters {@code queue}, {@code state}, {@code from} and {@code to}
   * (epoch ms of the end: from inclusive, to exclusive), {@code cursor} and {@code limit}.
   */
  public void list(Context ctx, Principal principal) {
    String namespace = PathNames.namespace(ctx);
    String queue = ctx.queryParam("queue");
    if (queue != null && !queue.isEmpty()) {
      // Checked like a path name: the same rule and the same 400.
      QueueName.of(namespace, queue);
    } else {
      queue = null;
    }
    PayloadEncoding encoding = PayloadEncoding.of(ctx);
    ArchiveQuery query =
        new ArchiveQuery(
            namespace,
            queue,
            state(ctx.queryParam("state")),
            time(ctx, "from"),
            time(ctx, "to"),
            emptyToNull(ctx.queryParam("cursor")),
            limit(ctx));
    ArchivePage page = api.archive().list(query);
    ObjectNode answer = Json.object();
    ArrayNode jobs = answer.putArray("jobs");
    for (ArchivedJob job : page.jobs()) {
      jobs.add(view(job, encoding));
    }
    answer.put("next_cursor", page.nextCursor());
    Responses.json(ctx, 200, answer);
  }

  /** One archived job: the fields of a job read by id, without what only a live job has. */
  static ObjectNode view(ArchivedJob job, PayloadEncoding encoding) {
    ObjectNode node = Json.object();
    node.put("queue", job.queue().toString());
    node.put("id", job.id());
    node.put("state", job.state().name());
    node.put("priority", job.priority());
    node.put("attempts", job.attempts());
    node.put("max_attempts", job.maxAttempts());
    Views.putTime(node, "created_at", job.createdAt());
    Views.putTime(node, "due_at", job.dueAt());
    Views.putTime(node, "started_at", job.startedAt());
    Views.putTime(node, "finished_at", job.finishedAt());
    Views.putTime(node, "archived_at", job.archivedAt());
    node.put("last_error", job.lastError());
    if (job.payload() == null) {
      node.putNull("payload");
    } else {
      Views.putBytes(node, "payload", job.payload(), encoding);
    }
    if (job.result() == null) {
      node.putNull("result");
    } else {
      Views.putBytes(node, "result", job.result(), encoding);
    }
    return node;
  }

  private static JobState state(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    for (JobState state : ENDED) {
      if (state.name().equals(text.toUpperCase(Locale.ROOT))) {
        return state;
      }
    }
    throw ApiException.invalidField("state", "must be one of DONE, DEAD, CANCELLED, EXPIRED");
  }

  private static Instant time(Context ctx, String name) {
    String text = ctx.queryParam(name);
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      long ms = Long.parseLong(text);
      if (ms >= 0) {
        return Instant.ofEpochMilli(ms);
      }
    } catch (NumberFormatException e) {
      // Answered below.
    }
    throw ApiException.invalidField(name, "must be a time in epoch milliseconds, 0 or more");
  }

  private static int limit(Context ctx) {
    String text = ctx.queryParam("limit");
    if (text == null || text.isEmpty()) {
      return DEFAULT_LIMIT;
    }
    try {
      long value = Long.parseLong(text);
      if (value >= 1 && value <= ArchiveReader.MAX_PAGE) {
        return (int) value;
      }
    } catch (NumberFormatException e) {
      // Answered below.
    }
    throw ApiException.invalidField(
        "limit", "must be an integer between 1 and " + ArchiveReader.MAX_PAGE);
  }

  private static String emptyToNull(String text) {
    return text == null || text.isEmpty() ? null : text;
  }
}
