package io.lineup.core;

import io.lineup.core.model.QueueName;
import io.lineup.core.model.Schedule;
import io.lineup.core.model.ScheduleRun;
import io.lineup.core.model.ScheduleSpec;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The schedules' engine side: their Redis state and the driver that fires them. */
final class ScheduleEngine implements AutoCloseable {
  ScheduleEngine(Engine engine) {}

  Schedule upsert(QueueName queue, ScheduleSpec spec) {
    throw new UnsupportedOperationException("schedules: not built yet");
  }

  Optional<Schedule> get(QueueName queue, String name) {
    throw new UnsupportedOperationException("schedules: not built yet");
  }

  List<Schedule> list(QueueName queue) {
    throw new UnsupportedOperationException("schedules: not built yet");
  }

  Schedule setPaused(QueueName queue, String name, boolean paused) {
    throw new UnsupportedOperationException("schedules: not built yet");
  }

  boolean delete(QueueName queue, String name) {
    throw new UnsupportedOperationException("schedules: not built yet");
  }

  List<Instant> next(QueueName queue, String name, int n) {
    throw new UnsupportedOperationException("schedules: not built yet");
  }

  List<ScheduleRun> history(QueueName queue, String name) {
    throw new UnsupportedOperationException("schedules: not built yet");
  }

  List<QueueName> queues() {
    throw new UnsupportedOperationException("schedules: not built yet");
  }

  @Override
  public void close() {}
}
