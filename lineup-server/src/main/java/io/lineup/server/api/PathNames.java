package io.lineup.server.api;

import io.javalin.http.Context;
import io.lineup.api.ErrorCode;
import io.lineup.api.JobIds;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.QueueName;
import io.lineup.server.http.ApiException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Reads and checks the names in a request path: namespace, queue(s), job id. */
public final class PathNames {
  /** Most queues one lease call may name (a comma list). */
  public static final int MAX_QUEUES_PER_LEASE = 16;

  private PathNames() {}

  /** The {@code {ns}} of the path. */
  public static String namespace(Context ctx) {
    return namespace(ctx.pathParam("ns"));
  }

  /**
   * A namespace as the path gives it.
   *
   * @throws ApiException 400 {@code invalid_name} when it is not a namespace name
   */
  public static String namespace(String ns) {
    try {
      return QueueName.of(ns, "x").namespace();
    } catch (InvalidArgumentException e) {
      throw new ApiException(ErrorCode.INVALID_NAME, "namespace", e.reason());
    }
  }

  /** The {@code {ns}/{queue}} of the path, one queue. */
  public static QueueName queue(Context ctx) {
    return queue(namespace(ctx), ctx.pathParam("queue"));
  }

  /**
   * The {@code {ns}/{queue}} of the path on a route that writes to the queue or shows its payloads.
   *
   * @throws ApiException 403 {@code reserved_queue} for a queue Lineup uses itself ({@link
   *     ReservedQueueNames})
   */
  public static QueueName publicQueue(Context ctx) {
    return ReservedQueueNames.refuse(queue(ctx));
  }

  /** As {@link #publicQueue(Context)}, for a namespace and queue name given apart. */
  public static QueueName publicQueue(String ns, String name) {
    return ReservedQueueNames.refuse(queue(ns, name));
  }

  /** As {@link #queues(Context)}, refusing a reserved queue among them. */
  public static List<QueueName> publicQueues(Context ctx) {
    List<QueueName> queues = queues(ctx);
    queues.forEach(ReservedQueueNames::refuse);
    return queues;
  }

  /** The {@code {queue}} of the path as a comma list, in order, without repeats. */
  public static List<QueueName> queues(Context ctx) {
    String ns = namespace(ctx);
    String[] names = ctx.pathParam("queue").split(",", -1);
    if (names.length > MAX_QUEUES_PER_LEASE) {
      throw new ApiException(
          ErrorCode.INVALID_NAME,
          "queue",
          "at most " + MAX_QUEUES_PER_LEASE + " queues per lease, got " + names.length);
    }
    Set<QueueName> queues = new LinkedHashSet<>();
    for (String name : names) {
      queues.add(queue(ns, name));
    }
    return new ArrayList<>(queues);
  }

  /** What a job id is, for error messages. */
  public static final String JOB_ID_RULE = JobIds.PATH_ID_RULE;

  /** The {@code {id}} of the path. */
  public static String jobId(Context ctx) {
    String id = ctx.pathParam("id");
    if (!isJobId(id)) {
      throw new ApiException(ErrorCode.INVALID_NAME, "id", JOB_ID_RULE);
    }
    return id;
  }

  /** Whether a text can be a job id (one a caller gave, or one the engine generated). */
  public static boolean isJobId(String id) {
    return JobIds.isJobId(id);
  }

  /**
   * A queue as the path gives it, in a namespace already checked.
   *
   * @throws ApiException 400 {@code invalid_name} when it is not a queue name
   */
  public static QueueName queue(String ns, String name) {
    try {
      return QueueName.of(ns, name);
    } catch (InvalidArgumentException e) {
      throw new ApiException(ErrorCode.INVALID_NAME, e.field(), e.reason());
    }
  }
}
