package io.lineup.spring;

import io.lineup.api.resource.LeasedJob;
import io.lineup.api.resource.PublishResult;
import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.RemoteWorker;
import io.lineup.client.ScheduleSettings;
import io.lineup.consumer.WorkerOptions;
import java.time.ZoneId;

/** The starter's calls done over HTTP by the client of a Lineup server. */
final class ClientBackend implements LineupBackend {
  private final LineupClient client;

  ClientBackend(LineupClient client) {
    this.client = client;
  }

  @Override
  public String mode() {
    return "client";
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
    PublishResult result = client.publish(QueueNames.client(queue), job);
    return new PublishReceipt(queue, result.id(), result.created(), false);
  }

  @Override
  public RunningWorker startWorker(String queue, WorkerOptions options, JobInvocation handler) {
    RemoteWorker worker =
        client.worker(
            QueueNames.client(queue),
            (LeasedJob job) ->
                handler.run(
                    new HandledJob(
                        queue, job.id(), job.attempt(), job.maxAttempts(), job.payloadBytes()),
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
    client
        .schedules()
        .upsert(QueueNames.client(queue), name, ScheduleSettings.cron(cron, zone).payload(payload));
  }

  @Override
  public String problem() {
    try {
      return client.ready() ? null : "the server is not ready";
    } catch (RuntimeException e) {
      return "the server does not answer: " + e.getClass().getSimpleName();
    }
  }
}
