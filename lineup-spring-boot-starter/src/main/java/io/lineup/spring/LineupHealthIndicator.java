package io.lineup.spring;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code lineup} health: up when Redis (embedded) or the server (client) answers and every
 * {@link LineupHandler} has its worker running; down otherwise, saying which. Details: the mode,
 * the handlers, the workers running and their jobs in flight.
 */
public final class LineupHealthIndicator implements HealthIndicator {
  private final LineupBackend backend;
  private final LineupWorkers workers;
  private final LineupProperties properties;

  LineupHealthIndicator(LineupBackend backend, LineupWorkers workers, LineupProperties properties) {
    this.backend = backend;
    this.workers = workers;
    this.properties = properties;
  }

  @Override
  public Health health() {
    var running = workers.workers();
    long handlers = workers.handlerCount();
    Health.Builder health =
        Health.up()
            .withDetail("mode", backend.mode())
            .withDetail("handlers", handlers)
            .withDetail("workersRunning", running.size())
            .withDetail("inFlight", running.stream().mapToInt(RunningWorker::inFlight).sum());
    String problem = backend.problem();
    if (problem != null) {
      return health.down().withDetail("error", problem).build();
    }
    if (properties.getWorker().isEnabled() && running.size() < handlers) {
      return health.down().withDetail("error", "workers are not running").build();
    }
    return health.build();
  }
}
