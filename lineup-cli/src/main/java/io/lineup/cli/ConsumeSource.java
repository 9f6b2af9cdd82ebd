package io.lineup.cli;

import io.lineup.api.resource.LeasedJob;
import io.lineup.client.LeaseLostException;
import io.lineup.client.LineupClient;
import io.lineup.client.QueueName;
import io.lineup.client.RemoteLeaseSource;
import io.lineup.consumer.Failure;
import io.lineup.consumer.IdleWait;
import io.lineup.consumer.LeaseCall;
import io.lineup.consumer.LeaseSource;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's lease source as {@code lineup consume} settles jobs: a failed job is nacked with its
 * message alone (no retry delay), and an ack refused because the lease was lost is reported on
 * standard error and counted as failed. Acks that went through are counted.
 */
final class ConsumeSource implements LeaseSource<LeasedJob> {
  private final LineupClient client;
  private final RemoteLeaseSource remote;
  private final PrintStream err;
  private final AtomicInteger acked = new AtomicInteger();
  private final AtomicInteger lostAcks = new AtomicInteger();

  ConsumeSource(LineupClient client, QueueName queue, Duration wait, PrintStream err) {
    this.client = client;
    this.remote = new RemoteLeaseSource(client, queue, wait);
    this.err = err;
  }

  /** Jobs acked. */
  int acked() {
    return acked.get();
  }

  /** Jobs that finished after their lease was lost, so their ack was refused. */
  int lostAcks() {
    return lostAcks.get();
  }

  @Override
  public LeaseCall<LeasedJob> lease(int count) {
    return remote.lease(count);
  }

  @Override
  public IdleWait openIdleWait() {
    return remote.openIdleWait();
  }

  @Override
  public String id(LeasedJob job) {
    return remote.id(job);
  }

  @Override
  public Duration leaseLeft(LeasedJob job) {
    return remote.leaseLeft(job);
  }

  @Override
  public Duration extend(LeasedJob job) {
    return remote.extend(job);
  }

  @Override
  public void ack(LeasedJob job, byte[] result) {
    try {
      remote.ack(job, result);
      acked.incrementAndGet();
    } catch (LeaseLostException lost) {
      lostAcks.incrementAndGet();
      err.println(
          "lineup: job " + job.id() + " finished after its lease was lost: " + lost.getMessage());
    }
  }

  @Override
  public void fail(LeasedJob job, Throwable error) {
    client.nack(job, error.getMessage(), null);
  }

  @Override
  public void giveBack(LeasedJob job) {
    remote.giveBack(job);
  }

  @Override
  public Failure classify(RuntimeException error) {
    return remote.classify(error);
  }
}
