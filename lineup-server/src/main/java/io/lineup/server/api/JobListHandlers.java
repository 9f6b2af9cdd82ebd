package io.lineup.server.api;

import io.javalin.http.Context;
import io.lineup.api.JobListFields;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobAction;
import io.lineup.core.model.JobActionResult;
import io.lineup.core.model.JobList;
import io.lineup.core.model.JobListQuery;
import io.lineup.core.model.Limits;
import io.lineup.core.model.QueueName;
import io.lineup.server.auth.Principal;
import io.lineup.server.auth.Scope;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.JsonFields;
import io.lineup.server.http.RequestBody;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A queue's jobs listed by state with keyset paging and filters, and actions on jobs one by one or
 * in bulk (docs/job-lists.md). Cancel and delete take the {@code publish} or {@code manage} scope,
 * as the job's {@code DELETE} does; run now, respawn and every action by filter take {@code
 * manage}.
 */
public final class JobListHandlers {
  /** Latest time a {@code from} or {@code to} may name, epoch ms: the end of the year 9999 UTC. */
  static final long MAX_TIME_MS = 253_402_300_799_999L; // 9999-12-31T23:59:59.999Z

  private static final Set<String> ACTION_FIELDS =
      Set.of(
          JobListFields.ACTION,
          JobListFields.IDS,
          JobListFields.FILTER,
          JobListFields.EXPECTED_COUNT,
          JobListFields.TTL_MS);

  private static final Set<String> FILTER_FIELDS =
      Set.of(
          JobListFields.STATE,
          JobListFields.ID_PREFIX,
          JobListFields.ERROR,
          JobListFields.FROM,
          JobListFields.TO);

  private static final Set<Scope> MANAGE = EnumSet.of(Scope.MANAGE);

  private final ApiContext api;
  private final QueueHandlers queues;

  public JobListHandlers(ApiContext api, QueueHandlers queues) {
    this.api = api;
    this.queues = queues;
  }

  /**
   * {@code GET
   * /v1/queues/{ns}/{queue}/jobs?state=&cursor=&limit=&order=&id_prefix=&error=&from=&to=}: a page
   * of one state's jobs.
   */
  public void list(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    PayloadEncoding encoding = PayloadEncoding.of(ctx);
    String state = ctx.queryParam(JobListFields.STATE);
    if (state == null || state.isEmpty()) {
      throw ApiException.invalidField(
          JobListFields.STATE, "give the list: ready, delayed, leased, dead or finished");
    }
    JobListQuery query =
        filter(
                JobList.of(state),
                ctx.queryParam(JobListFields.ID_PREFIX),
                ctx.queryParam(JobListFields.ERROR),
                queryTime(ctx, JobListFields.FROM),
                queryTime(ctx, JobListFields.TO))
            .limit(
                DeadLetterHandlers.queryInt(
                    ctx,
                    JobListFields.LIMIT,
                    1,
                    JobListFields.MAX_LIMIT,
                    JobListFields.DEFAULT_LIMIT))
            .descending(descending(ctx.queryParam(JobListFields.ORDER)))
            .after(emptyToNull(ctx.queryParam(JobListFields.CURSOR)));
    queues.requireKnown(queue);
    Responses.json(ctx, 200, Views.jobListPage(api.lineup().listJobs(queue, query), encoding));
  }

  /** {@code POST /v1/queues/{ns}/{queue}/jobs/{id}/run-now}: a delayed job joins the line now. */
  public void runNow(Context ctx, Principal principal) {
    one(ctx, JobAction.RUN_NOW);
  }

  /** {@code POST /v1/queues/{ns}/{queue}/jobs/{id}/respawn}: a dead job goes back to the line. */
  public void respawn(Context ctx, Principal principal) {
    one(ctx, JobAction.RESPAWN);
  }

  private void one(Context ctx, JobAction action) {
    QueueName queue = PathNames.publicQueue(ctx);
    String id = PathNames.jobId(ctx);
    JobActionResult result = api.lineup().actOnJobs(queue, action, List.of(id), null);
    if (!result.skipped().isEmpty() && "not_found".equals(result.skipped().get(0).reason())) {
      throw ApiException.notFound("no job " + id + " in queue " + queue);
    }
    Responses.json(ctx, 200, Views.jobAction(result));
  }

  /**
   * {@code POST /v1/queues/{ns}/{queue}/jobs/actions}: {@code {action, ids}} or {@code {action,
   * filter, expected_count}}, optional {@code ttl_ms} for respawn.
   */
  public void act(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    JsonFields f =
        JsonFields.of(RequestBody.read(ctx, api.limits().maxBodyBytes(), true), "", ACTION_FIELDS);
    String actionName = f.requiredText(JobListFields.ACTION, 16);
    JobAction action;
    try {
      action = JobAction.of(actionName);
    } catch (InvalidArgumentException e) {
      throw ApiException.invalidField(JobListFields.ACTION, e.reason());
    }
    List<String> ids =
        f.optionalTextList(JobListFields.IDS, Limits.MAX_BATCH, Limits.MAX_ID_LENGTH);
    for (int i = 0; ids != null && i < ids.size(); i++) {
      if (!PathNames.isJobId(ids.get(i))) {
        throw ApiException.invalidField("ids[" + i + "]", PathNames.JOB_ID_RULE);
      }
    }
    JsonFields filter = f.optionalObject(JobListFields.FILTER, FILTER_FIELDS);
    Long expected = f.optionalLong(JobListFields.EXPECTED_COUNT, 0, Long.MAX_VALUE);
    Long ttl = f.optionalLong(JobListFields.TTL_MS, 1, Limits.MAX_TTL_MS);
    if ((ids == null) == (filter == null)) {
      throw ApiException.invalidField(
          JobListFields.IDS, "give exactly one of ids (a list) or filter (an object)");
    }
    if (ids != null && ids.isEmpty()) {
      throw ApiException.invalidField(JobListFields.IDS, "give 1 to " + Limits.MAX_BATCH + " ids");
    }
    if (filter != null && expected == null) {
      throw ApiException.invalidField(
          JobListFields.EXPECTED_COUNT,
          "an action by filter needs the count of jobs it was shown to match");
    }
    if (ids != null && expected != null) {
      throw ApiException.invalidField(
          JobListFields.EXPECTED_COUNT, "is only taken with filter, not with ids");
    }
    boolean manageOnly =
        filter != null || action == JobAction.RUN_NOW || action == JobAction.RESPAWN;
    if (manageOnly && !principal.hasAny(MANAGE)) {
      throw ApiException.forbidden(
          "this action takes the manage scope (cancel and delete by ids also take publish)");
    }
    Duration ttlDuration = ttl == null ? null : Duration.ofMillis(ttl);
    queues.requireKnown(queue);
    JobActionResult result;
    if (ids != null) {
      result = api.lineup().actOnJobs(queue, action, ids, ttlDuration);
    } else {
      String state = filter.requiredText(JobListFields.STATE, 16);
      JobList list;
      try {
        list = JobList.of(state);
      } catch (InvalidArgumentException e) {
        throw ApiException.invalidField(filter.path(JobListFields.STATE), e.reason());
      }
      JobListQuery query =
          filter(
              list,
              filter.optionalText(JobListFields.ID_PREFIX, JobListQuery.MAX_FILTER_CHARS),
              filter.optionalText(JobListFields.ERROR, JobListQuery.MAX_FILTER_CHARS),
              instant(filter.optionalLong(JobListFields.FROM, 0, MAX_TIME_MS)),
              instant(filter.optionalLong(JobListFields.TO, 0, MAX_TIME_MS)));
      result = api.lineup().actOnMatchingJobs(queue, action, query, expected, ttlDuration);
    }
    Responses.json(ctx, 200, Views.jobAction(result));
  }

  private static JobListQuery filter(
      JobList list, String idPrefix, String error, Instant from, Instant to) {
    return JobListQuery.of(list)
        .idPrefix(emptyToNull(idPrefix))
        .errorContains(emptyToNull(error))
        .between(from, to);
  }

  private static boolean descending(String order) {
    if (order == null || order.isEmpty() || order.equals("asc")) {
      return false;
    }
    if (order.equals("desc")) {
      return true;
    }
    throw ApiException.invalidField(JobListFields.ORDER, "must be asc or desc, got " + order);
  }

  private static Instant queryTime(Context ctx, String name) {
    String text = ctx.queryParam(name);
    if (text == null || text.isEmpty()) {
      return null;
    }
    long value;
    try {
      value = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw ApiException.invalidField(name, "must be a time in epoch milliseconds");
    }
    if (value < 0 || value > MAX_TIME_MS) {
      throw ApiException.invalidField(
          name, "must be a time in epoch milliseconds between 0 and " + MAX_TIME_MS);
    }
    return Instant.ofEpochMilli(value);
  }

  private static Instant instant(Long millis) {
    return millis == null ? null : Instant.ofEpochMilli(millis);
  }

  private static String emptyToNull(String text) {
    return text == null || text.isEmpty() ? null : text;
  }
}
