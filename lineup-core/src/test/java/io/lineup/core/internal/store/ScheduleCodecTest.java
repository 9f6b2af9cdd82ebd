package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.model.MissedTicks;
import io.lineup.core.model.ScheduleSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** A spec reads back from its stored form equal to the spec written, every field included. */
class ScheduleCodecTest {
  @Test
  void aSpecWithEveryFieldSetReadsBackEqual() {
    ScheduleSpec spec =
        ScheduleSpec.cron("nightly:report.v2", "0 0 2 * * MON-FRI", ZoneId.of("Europe/Berlin"))
            .payloadText("{\"report\":\"sales\"}")
            .priority(-7)
            .key("tenant-42")
            .ttl(Duration.ofMinutes(30))
            .maxAttempts(5)
            .timeToRun(Duration.ofSeconds(90))
            .startAt(Instant.parse("2026-01-01T00:00:00.123456789Z"))
            .endAt(Instant.parse("2027-01-01T00:00:00Z"))
            .maxRuns(365L)
            .jitter(Duration.ofMillis(1500))
            .paused(true)
            .missed(MissedTicks.CATCH_UP)
            .catchUpMax(12)
            .historySize(50)
            .build();

    assertThat(ScheduleCodec.decode(ScheduleCodec.encode(spec))).isEqualTo(spec);
  }

  @Test
  void anIntervalSpecWithDefaultsReadsBackEqual() {
    ScheduleSpec spec = ScheduleSpec.every("cleanup", Duration.ofMinutes(5)).build();

    ScheduleSpec read = ScheduleCodec.decode(ScheduleCodec.encode(spec));

    assertThat(read).isEqualTo(spec);
    assertThat(read.every()).isEqualTo(Duration.ofMinutes(5));
    assertThat(read.ttl()).isNull();
    assertThat(read.maxRuns()).isNull();
    assertThat(read.missed()).isEqualTo(MissedTicks.SKIP);
  }
}
