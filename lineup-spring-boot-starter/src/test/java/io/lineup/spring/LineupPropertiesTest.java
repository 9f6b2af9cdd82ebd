package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.consumer.WorkerOptions;
import org.junit.jupiter.api.Test;

/** The starter's worker defaults are the engine's, though written as literals for the metadata. */
class LineupPropertiesTest {
  @Test
  void workerDefaultsAreTheEnginesWorkerDefaults() {
    LineupProperties.Worker worker = new LineupProperties().getWorker();
    WorkerOptions engine = WorkerOptions.defaults();
    assertThat(worker.getConcurrency()).isEqualTo(engine.concurrency());
    assertThat(worker.getIdleWait()).isEqualTo(engine.idleWait());
    assertThat(worker.getShutdownGrace()).isEqualTo(engine.shutdownGrace());
  }
}
