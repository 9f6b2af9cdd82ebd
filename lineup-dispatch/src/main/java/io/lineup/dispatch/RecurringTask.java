package io.lineup.dispatch;

import java.time.Duration;
import java.util.Objects;

/**
 * A task as the job template of a recurring schedule on its endpoint's queue ({@link
 * Tasks#recurring}): every tick's job carries this payload, priority and time to live, so it is a
 * task like a submitted one, sent within the endpoint's limits and checked by the egress policy
 * when it is sent.
 *
 * @param request the checked request, its method defaulted and its delivery key a recurring one
 *     ({@link TaskRequest#newRecurringDeliveryKey()})
 * @param priority the tasks' priority
 * @param ttl how long each task's record may live in Redis: its line timeout and every attempt with
 *     its longest wait, as for a submitted task (from the endpoint's settings at the time the
 *     template was made)
 */
public record RecurringTask(TaskRequest request, int priority, Duration ttl) {
  /**
   * @throws NullPointerException when the request or the time to live is null
   */
  public RecurringTask {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(ttl, "ttl");
  }

  /**
   * The job payload of every tick: the request encoded as a task's ({@link TaskRequest#encode}).
   */
  public byte[] payload() {
    return request.encode();
  }
}
