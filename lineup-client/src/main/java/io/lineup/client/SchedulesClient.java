package io.lineup.client;

import io.lineup.api.ScheduleFields;
import io.lineup.api.resource.Schedule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Recurring schedules ({@code …/schedules}): a queue's, whose ticks publish a job, and an
 * endpoint's, whose ticks submit a task; each tick makes one job however many servers run. Get it
 * from {@link LineupClient#schedules()}. Writing takes the {@code publish} scope (pausing, resuming
 * and deleting {@code publish} or {@code manage}); reading any scope of the namespace for a queue's
 * schedules, {@code publish}, {@code manage} or {@code read} for an endpoint's.
 *
 * <pre>{@code
 * QueueName reports = QueueName.of("shop", "reports");
 * client.schedules().upsert(reports, "nightly",
 *     ScheduleSettings.cron("0 0 2 * * *", ZoneId.of("Europe/Paris")).payloadJson("{}"));
 * List<Instant> next = client.schedules().next(reports, "nightly", 5);
 * }</pre>
 *
 * <p>Every method throws {@link NotFoundException} ({@code schedule_not_found}) for a schedule that
 * is not there, except {@link #upsert} and {@link #list}.
 */
public final class SchedulesClient {
  /** Most ticks {@link #next} answers. */
  public static final int MAX_NEXT = 100;

  private final Transport transport;

  SchedulesClient(Transport transport) {
    this.transport = transport;
  }

  private static String base(QueueName queue) {
    return "/v1/queues/"
        + Transport.segment(queue.namespace())
        + "/"
        + Transport.segment(queue.name())
        + "/schedules";
  }

  private static String base(EndpointName endpoint) {
    return "/v1/endpoints/"
        + Transport.segment(endpoint.namespace())
        + "/"
        + Transport.segment(endpoint.name())
        + "/schedules";
  }

  private static String one(String base, String name) {
    return base + "/" + Transport.segment(Objects.requireNonNull(name, "name"));
  }

  // ---- a queue's schedules

  /**
   * Creates a queue's schedule, or changes it in place: its runs and history are kept, its new
   * settings hold from its next tick.
   *
   * @param name 1 to 128 characters from {@code A-Z a-z 0-9 _ . - :}
   * @return the schedule as it stands after
   * @throws InvalidRequestException when a setting is wrong ({@link LineupClientException#field()}
   *     names it: {@code cron}, {@code job.ttl_ms}, ...)
   * @throws ForbiddenException when the token may not publish there, or the priority is above its
   *     maximum ({@code priority_not_allowed})
   * @throws IllegalArgumentException when the settings hold a task instead of a job
   */
  public Schedule upsert(QueueName queue, String name, ScheduleSettings settings) {
    return Json.read(
        transport.put(one(base(queue), name), settings.toQueueJson()).body(), Schedule.class);
  }

  /**
   * A queue's schedule with its next tick, runs and latest history.
   *
   * @throws NotFoundException when there is no such schedule
   */
  public Schedule get(QueueName queue, String name) {
    return Json.read(transport.get(one(base(queue), name)).body(), Schedule.class);
  }

  /** A queue's schedules, by name. */
  public List<Schedule> list(QueueName queue) {
    return readList(base(queue));
  }

  /**
   * Pauses a queue's schedule: no job until resumed.
   *
   * @return the schedule as it stands after
   * @throws NotFoundException when there is no such schedule
   */
  public Schedule pause(QueueName queue, String name) {
    return action(one(base(queue), name) + "/pause");
  }

  /**
   * Resumes a queue's paused schedule: its next job is at its first tick from now.
   *
   * @return the schedule as it stands after
   * @throws NotFoundException when there is no such schedule
   */
  public Schedule resume(QueueName queue, String name) {
    return action(one(base(queue), name) + "/resume");
  }

  /**
   * Deletes a queue's schedule and its history; the jobs it published stay.
   *
   * @throws NotFoundException when there is no such schedule
   */
  public void delete(QueueName queue, String name) {
    transport.delete(one(base(queue), name));
  }

  /**
   * A queue's schedule's next ticks, computed without publishing anything: fewer when it ends
   * sooner, none when paused or ended.
   *
   * @param count 1 to {@value #MAX_NEXT}
   * @throws NotFoundException when there is no such schedule
   * @throws IllegalArgumentException when count is out of range
   */
  public List<Instant> next(QueueName queue, String name, int count) {
    return readTicks(one(base(queue), name), count);
  }

  // ---- an endpoint's schedules

  /**
   * Creates an endpoint's schedule, or changes it in place: each tick submits the settings' {@link
   * ScheduleSettings#task task}, checked now as a submit is (its callback URL against the
   * namespace's prefixes), and by the egress policy when it is sent.
   *
   * @return the schedule as it stands after
   * @throws NotFoundException when there is no such endpoint
   * @throws InvalidRequestException when a setting is wrong (the field names it, {@code task.path})
   * @throws IllegalArgumentException when the settings hold no task, or a job's payload or options
   */
  public Schedule upsert(EndpointName endpoint, String name, ScheduleSettings settings) {
    return Json.read(
        transport.put(one(base(endpoint), name), settings.toEndpointJson()).body(), Schedule.class);
  }

  /**
   * An endpoint's schedule.
   *
   * @throws NotFoundException when there is no such endpoint or schedule
   */
  public Schedule get(EndpointName endpoint, String name) {
    return Json.read(transport.get(one(base(endpoint), name)).body(), Schedule.class);
  }

  /**
   * An endpoint's schedules, by name.
   *
   * @throws NotFoundException when there is no such endpoint
   */
  public List<Schedule> list(EndpointName endpoint) {
    return readList(base(endpoint));
  }

  /** Pauses an endpoint's schedule. */
  public Schedule pause(EndpointName endpoint, String name) {
    return action(one(base(endpoint), name) + "/pause");
  }

  /** Resumes an endpoint's paused schedule. */
  public Schedule resume(EndpointName endpoint, String name) {
    return action(one(base(endpoint), name) + "/resume");
  }

  /** Deletes an endpoint's schedule; the tasks it submitted stay. */
  public void delete(EndpointName endpoint, String name) {
    transport.delete(one(base(endpoint), name));
  }

  /**
   * An endpoint's schedule's next ticks.
   *
   * @param count 1 to {@value #MAX_NEXT}
   */
  public List<Instant> next(EndpointName endpoint, String name, int count) {
    return readTicks(one(base(endpoint), name), count);
  }

  // ---- shared

  private Schedule action(String path) {
    return Json.read(transport.post(path, Json.object()).body(), Schedule.class);
  }

  private List<Schedule> readList(String path) {
    List<Schedule> list = new ArrayList<>();
    transport
        .get(path)
        .body()
        .path("schedules")
        .forEach(item -> list.add(Json.read(item, Schedule.class)));
    return List.copyOf(list);
  }

  private List<Instant> readTicks(String path, int count) {
    if (count < 1 || count > MAX_NEXT) {
      throw new IllegalArgumentException("next takes 1 to " + MAX_NEXT + " ticks; got " + count);
    }
    List<Instant> ticks = new ArrayList<>();
    transport
        .get(path + "/next?count=" + count)
        .body()
        .path(ScheduleFields.TICKS_AT)
        .forEach(tick -> ticks.add(Instant.ofEpochMilli(tick.asLong())));
    return List.copyOf(ticks);
  }
}
