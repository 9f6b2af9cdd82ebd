package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.javalin.http.Context;
import io.lineup.core.model.LeaseEntry;
import io.lineup.core.model.PeekedJob;
import io.lineup.core.model.QueueName;
import io.lineup.dispatch.EndpointKey;
import io.lineup.dispatch.Task;
import io.lineup.dispatch.TaskStatus;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * An endpoint's tasks by status, a page at a time: {@code queued} from the line and {@code failed}
 * from the dead letters (both by offset), {@code running} from the leased set (keyset, by lease
 * deadline), and {@code succeeded}, {@code cancelled} and {@code timed_out}, which no index holds
 * apart, by a bounded scan of the finished set, newest first.
 */
public final class EndpointTaskListHandlers {
  /** Tasks per page when the request names no limit. */
  static final int DEFAULT_PAGE = 50;

  /** Most tasks per page. */
  public static final int MAX_PAGE = 100;

  /** Most finished tasks one request reads while it looks for those of one status. */
  public static final int MAX_SCANNED = 500;

  private final ApiContext api;

  public EndpointTaskListHandlers(ApiContext api) {
    this.api = api;
  }

  /** {@code GET /v1/endpoints/{ns}/{endpoint}/tasks?status=&cursor=&limit=}. */
  public void list(Context ctx, Principal principal) {
    EndpointKey key = DispatchHandlers.endpoint(ctx);
    TaskStatus status = status(ctx.queryParam("status"));
    int limit = DeadLetterHandlers.queryInt(ctx, "limit", 1, MAX_PAGE, DEFAULT_PAGE);
    String cursor = ctx.queryParam("cursor");
    ObjectNode answer = Json.object();
    answer.put("endpoint", key.name());
    answer.put("status", status.json());
    ArrayNode list = answer.putArray("tasks");
    String next =
        switch (status) {
          case QUEUED -> queued(key, offset(cursor), limit, list);
          case FAILED -> failed(key, offset(cursor), limit, list);
          case RUNNING -> running(key, LeaseCursor.decode(cursor), limit, list);
          default -> scanFinished(key, status, LeaseCursor.decode(cursor), limit, list, answer);
        };
    answer.put("next_cursor", next);
    Responses.json(ctx, 200, answer);
  }

  private String queued(EndpointKey key, int offset, int limit, ArrayNode list) {
    api.dispatch().endpoints().spec(key); // 404 for an unknown endpoint
    List<PeekedJob> line = api.lineup().peek(key.queue(), offset, limit);
    add(list, api.dispatch().tasks().tasks(key, line.stream().map(PeekedJob::id).toList()), null);
    return line.size() == limit ? Integer.toString(offset + limit) : null;
  }

  private String failed(EndpointKey key, int offset, int limit, ArrayNode list) {
    var page = api.dispatch().tasks().deadTasks(key, offset, limit);
    add(list, page.tasks(), null);
    return offset + limit < page.total() ? Integer.toString(offset + limit) : null;
  }

  private String running(EndpointKey key, LeaseCursor cursor, int limit, ArrayNode list) {
    api.dispatch().endpoints().spec(key);
    List<LeaseEntry> page =
        api.lineup()
            .leased(
                key.queue(),
                cursor == null ? 0 : cursor.deadlineMs(),
                cursor == null ? null : cursor.id(),
                limit);
    add(
        list,
        api.dispatch().tasks().tasks(key, page.stream().map(LeaseEntry::id).toList()),
        TaskStatus.RUNNING);
    return page.size() == limit ? last(page).encode() : null;
  }

  /** Reads finished entries newest first until the page is full or the scan budget is spent. */
  private String scanFinished(
      EndpointKey key,
      TaskStatus status,
      LeaseCursor cursor,
      int limit,
      ArrayNode list,
      ObjectNode answer) {
    api.dispatch().endpoints().spec(key);
    QueueName queue = key.queue();
    long toMs = cursor == null ? Long.MAX_VALUE : cursor.deadlineMs();
    String beforeId = cursor == null ? null : cursor.id();
    int scanned = 0;
    int found = 0;
    LeaseEntry lastRead = null;
    boolean more = true;
    while (found < limit && scanned < MAX_SCANNED && more) {
      int chunk = Math.min(100, MAX_SCANNED - scanned);
      List<LeaseEntry> entries = api.lineup().finished(queue, toMs, beforeId, chunk);
      more = entries.size() == chunk;
      List<Task> tasks =
          api.dispatch().tasks().tasks(key, entries.stream().map(LeaseEntry::id).toList());
      int i = 0;
      for (LeaseEntry entry : entries) {
        scanned++;
        lastRead = entry;
        // Tasks are in entry order, without those whose record went meanwhile.
        while (i < tasks.size() && !tasks.get(i).id().equals(entry.id())) {
          i++;
        }
        if (i < tasks.size() && tasks.get(i).status() == status) {
          add(list, List.of(tasks.get(i)), null);
          if (++found == limit) {
            break;
          }
        }
      }
      if (lastRead != null) {
        toMs = lastRead.leaseDeadline().toEpochMilli();
        beforeId = lastRead.id();
      }
    }
    answer.put("scanned", scanned);
    boolean done = !more && (lastRead == null || found < limit);
    return done || lastRead == null
        ? null
        : new LeaseCursor(lastRead.leaseDeadline().toEpochMilli(), lastRead.id()).encode();
  }

  private static void add(ArrayNode list, List<Task> tasks, TaskStatus only) {
    for (Task task : tasks) {
      if (only == null || task.status() == only) {
        list.addRawValue(new RawValue(new String(TaskJson.write(task), StandardCharsets.UTF_8)));
      }
    }
  }

  private static LeaseCursor last(List<LeaseEntry> page) {
    LeaseEntry last = page.get(page.size() - 1);
    return new LeaseCursor(last.leaseDeadline().toEpochMilli(), last.id());
  }

  private static TaskStatus status(String text) {
    for (TaskStatus status : TaskStatus.values()) {
      if (status.json().equals(text == null ? "" : text.toLowerCase(Locale.ROOT))) {
        return status;
      }
    }
    throw ApiException.invalidField(
        "status",
        "is required, one of "
            + String.join(", ", Arrays.stream(TaskStatus.values()).map(TaskStatus::json).toList()));
  }

  private static int offset(String cursor) {
    if (cursor == null || cursor.isEmpty()) {
      return 0;
    }
    try {
      int offset = Integer.parseInt(cursor);
      if (offset >= 0 && offset <= DeadLetterHandlers.MAX_OFFSET) {
        return offset;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ApiException.invalidField(
        "cursor", "is not a cursor of this list: give the next_cursor of the previous page");
  }
}
