package io.lineup.spring;

import io.lineup.consumer.WorkerOptions;
import io.lineup.core.Lineup;
import io.lineup.core.Worker;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.ScheduleSpec;
import java.time.ZoneId;

/** The starter's calls done by the engine in this process. */
final class EmbeddedBackend implements LineupBackend {
  private final Lineup lineup;

  EmbeddedBackend(Lineup lineup) {
    this.lineup = lineup;
  }

  @Override
  public String mode() {
    return "embedded";
  }

  @Override
  public PublishReceipt publish(String queue, byte[] payload, PublishOptions options) {
    NewJob job = NewJob.of(payload).priority(options.priority());
    if (options.id() != null) {
      job = job.id(options.id());
    }
    if (options.delay() != null) {
      job = job.delay(options.delay());
    }
    if (options.maxAttempts() != null) {
      job = job.maxAttempts(options.maxAttempts());
    }
    if (options.timeToRun() != null) {
      job = job.timeToRun(options.timeToRun());
    }
    if (options.ttl() != null) {
      job = job.ttl(options.ttl());
    }
    PublishResult result = lineup.publish(QueueNames.engine(queue), job);
    return new PublishReceipt(queue, result.id(), result.created(), false);
  }

  @Override
  public RunningWorker startWorker(String queue, WorkerOptions options, JobInvocation handler) {
    Worker worker =
        lineup.worker(
            QueueNames.engine(queue),
            (LeasedJob job) ->
                handler.run(
                    new HandledJob(
                        queue, job.id(), job.attempt(), job.maxAttempts(), job.payload()),
                    job),
            options);
    worker.start();
    return new RunningWorker() {
      @Override
      public String queue() {
        return queue;
      }

      @Override
      public int inFlight() {
        return worker.inFlight();
      }

      @Override
      public long handled() {
        return worker.handled();
      }

      @Override
      public long failed() {
        return worker.failed();
      }

      @Override
      public void close() {
        worker.close();
      }
    };
  }

  @Override
  public void upsertSchedule(String queue, String name, String cron, ZoneId zone, byte[] payload) {
    lineup
        .schedules()
        .upsert(
            QueueNames.engine(queue), ScheduleSpec.cron(name, cron, zone).payload(payload).build());
  }

  @Override
  public String problem() {
    try {
      lineup.ping();
      return null;
    } catch (RuntimeException e) {
      return "Redis does not answer: " + e.getClass().getSimpleName();
    }
  }
}
