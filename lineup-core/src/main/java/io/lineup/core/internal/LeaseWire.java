package io.lineup.core.internal;

import io.lineup.core.LeasedJob;
import io.lineup.core.QueueName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The lease script's reply (see {@code lease.lua}): ack codes, status, wait hint, the script's
 * clock, then one table per leased job. Shared by the engine and its micro-benchmarks.
 */
public final class LeaseWire {
  /** Index of the first job table in the reply. */
  public static final int FIRST_JOB = 4;

  private LeaseWire() {}

  /** The leased jobs of a reply, in line order. */
  public static List<LeasedJob> jobs(QueueName queue, List<Object> reply) {
    Instant now = Instant.ofEpochMilli(Replies.asLong(reply.get(3)));
    List<LeasedJob> jobs = new ArrayList<>(Math.max(0, reply.size() - FIRST_JOB));
    for (int i = FIRST_JOB; i < reply.size(); i++) {
      List<Object> job = Replies.asList(reply.get(i));
      jobs.add(
          new LeasedJob(
              queue,
              Replies.asString(job.get(0)),
              Replies.asBytes(job.get(1)),
              (int) Replies.asLong(job.get(2)),
              (int) Replies.asLong(job.get(3)),
              (int) Replies.asLong(job.get(4)),
              Replies.asString(job.get(6)),
              Instant.ofEpochMilli(Replies.asLong(job.get(5))),
              Instant.ofEpochMilli(Replies.asLong(job.get(7))),
              Instant.ofEpochMilli(Replies.asLong(job.get(8))),
              now));
    }
    return jobs;
  }
}
