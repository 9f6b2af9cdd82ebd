package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ScriptOutputType;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Records that an earlier version stored keep working: a leased job's split record whose head is a
 * msgpack array (and whose line score is a number), as versions before the counted head wrote it,
 * is acked and released like one written now. The tests lease with this version, then turn the
 * record into the earlier form with a script of their own.
 */
abstract class EarlierRecordHeadTest extends EngineSuite {
  /**
   * Rewrites a split record's counted head (0xc1, the count, the values) as the earlier array head
   * with a numeric line score; fails when the record is not in the counted form.
   */
  private static final String TO_ARRAY_HEAD =
      """
      local raw = redis.call('HGET', KEYS[1], ARGV[1])
      if string.byte(raw, 1) ~= 0xc1 or string.byte(raw, 2) >= 0x80 then
        return redis.error_reply('not a split record with a counted head')
      end
      local values = {cmsgpack.unpack_limit(raw, string.byte(raw, 2), 2)}
      local body_at = table.remove(values, 1)
      if type(values[15]) == 'string' and values[15] ~= '' then
        values[15] = tonumber(values[15])
      end
      local head = cmsgpack.pack(values)
      redis.call('HSET', KEYS[1], ARGV[1], string.char(0xc1) .. head .. string.sub(raw, body_at + 1))
      return string.byte(head, 1)
      """;

  @Test
  void aJobLeasedUnderTheArrayHeadIsAckedWithItsResult() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.publish(queue, aJob("old head"));
      LeasedJob job = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      toArrayHead(queue, job.id());

      lineup.ack(job, "kept".getBytes(StandardCharsets.UTF_8));

      JobInfo info = lineup.get(queue, job.id()).orElseThrow();
      assertThat(info.state()).isEqualTo(JobState.DONE);
      assertThat(Fixtures.text(info.result())).isEqualTo("kept");
      assertThat(info.attempts()).isEqualTo(1);
      assertThat(Fixtures.text(info.payload())).isEqualTo("old head");
    }
  }

  @Test
  void aJobLeasedUnderTheArrayHeadIsReleasedToItsOwnPlaceInLine() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        ids.add(lineup.publish(queue, aJob("r" + i)).id());
      }
      LeasedJob first = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      toArrayHead(queue, first.id());

      lineup.release(first);

      JobInfo info = lineup.get(queue, first.id()).orElseThrow();
      assertThat(info.state()).isEqualTo(JobState.READY);
      assertThat(info.position()).as("ahead of the jobs published after it").isZero();
      LeasedJob again = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      assertThat(again.id()).isEqualTo(ids.get(0));
      assertThat(again.attempt()).isEqualTo(1);
    }
  }

  private void toArrayHead(QueueName queue, String id) {
    Long arrayByte =
        raw()
            .eval(
                TO_ARRAY_HEAD,
                ScriptOutputType.INTEGER,
                new byte[][] {KeySpace.recordKey(queue, id)},
                id.getBytes(StandardCharsets.UTF_8));
    assertThat(arrayByte).as("msgpack array header").isBetween(0x90L, 0x9fL);
  }
}
