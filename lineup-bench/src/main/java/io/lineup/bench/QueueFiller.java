package io.lineup.bench;

import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Puts jobs in line before a consume or rank scenario, by bulk publishes. */
final class QueueFiller {
  private QueueFiller() {}

  /** A new bulk of {@link BulkPublishScenario#JOBS_PER_CALL} jobs with the shared payload. */
  static List<NewJob> batch() {
    byte[] payload = Payloads.payload();
    List<NewJob> jobs = new ArrayList<>(BulkPublishScenario.JOBS_PER_CALL);
    for (int j = 0; j < BulkPublishScenario.JOBS_PER_CALL; j++) {
      jobs.add(NewJob.of(payload));
    }
    return jobs;
  }

  /** How many jobs {@link #fill} puts in line for {@code jobs}: whole bulk calls of them. */
  static int filled(int jobs) {
    int per = BulkPublishScenario.JOBS_PER_CALL;
    return (jobs + per - 1) / per * per;
  }

  /**
   * Publishes {@code jobs} jobs (rounded up to whole bulks) and returns the ids of about {@code
   * sample} of them, spread evenly over the line.
   */
  static List<String> fill(BenchContext context, QueueName queue, int jobs, int sample) {
    int calls = filled(jobs) / BulkPublishScenario.JOBS_PER_CALL;
    int stride = Math.max(1, calls * BulkPublishScenario.JOBS_PER_CALL / Math.max(1, sample));
    List<String> ids = Collections.synchronizedList(new ArrayList<>());
    InFlight.run(
        calls,
        BulkPublishScenario.IN_FLIGHT,
        call -> {
          List<PublishResult> results = context.lineup().publishAll(queue, batch());
          for (int j = 0; j < results.size(); j++) {
            if ((call * BulkPublishScenario.JOBS_PER_CALL + j) % stride == 0) {
              ids.add(results.get(j).id());
            }
          }
        });
    return new ArrayList<>(ids);
  }
}
