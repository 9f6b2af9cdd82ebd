package io.lineup.spring;

import io.lineup.consumer.WorkerOptions;
import java.time.ZoneId;

/**
 * What the starter needs from Lineup, done by the embedded engine or by the client of a server: the
 * one seam between the two modes, so publishers, handlers, schedules and the health check are
 * written once.
 */
interface LineupBackend {
  /** "embedded" or "client", for the health details. */
  String mode();

  /**
   * Publishes bytes now.
   *
   * @throws IllegalArgumentException when the queue's name is malformed
   */
  PublishReceipt publish(String queue, byte[] payload, PublishOptions options);

  /**
   * Starts a worker that calls {@code handler} for each job of the queue.
   *
   * @throws IllegalArgumentException when the queue's name or an option is out of range
   */
  RunningWorker startWorker(String queue, WorkerOptions options, JobInvocation handler);

  /** Creates the schedule or updates it in place. */
  void upsertSchedule(String queue, String name, String cron, ZoneId zone, byte[] payload);

  /**
   * Whether Redis (embedded) or the server (client) answers now.
   *
   * @return null when it does, else what went wrong (no secrets)
   */
  String problem();

  /** A handler as a backend runs it: the neutral view and the mode's own leased job. */
  @FunctionalInterface
  interface JobInvocation {
    byte[] run(HandledJob job, Object leasedJob) throws Exception;
  }
}
