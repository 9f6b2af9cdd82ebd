package io.lineup.spring;

import io.lineup.consumer.WorkerOptions;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts what the {@link LineupHandler} and {@link LineupSchedule} methods declare when the
 * application context starts (schedules first, then one worker per handler), and stops the workers
 * gracefully when it stops: leasing stops, running jobs get the shutdown grace, the rest are given
 * back to the line. Workers stop all at once, so a stop takes one grace at most.
 */
public final class LineupWorkers implements SmartLifecycle {
  /**
   * Started after the beans of lower phases (the web server, which starts at {@code DEFAULT_PHASE -
   * 1024}) and stopped before them, so handlers can still use the rest of the application while
   * they finish.
   */
  public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

  private static final Logger LOG = LoggerFactory.getLogger(LineupWorkers.class);

  private final LineupBackend backend;
  private final LineupHandlerRegistrar registrar;
  private final PayloadCodec codec;
  private final LineupProperties properties;
  private final List<LineupWorkerListener> listeners;
  private final List<RunningWorker> running = new CopyOnWriteArrayList<>();
  private volatile boolean started;

  LineupWorkers(
      LineupBackend backend,
      LineupHandlerRegistrar registrar,
      PayloadCodec codec,
      LineupProperties properties,
      List<LineupWorkerListener> listeners) {
    this.backend = backend;
    this.registrar = registrar;
    this.codec = codec;
    this.properties = properties;
    this.listeners = List.copyOf(listeners);
  }

  @Override
  public void start() {
    List<HandlerDefinition> definitions = registrar.definitions();
    if (properties.getSchedules().isEnabled()) {
      for (HandlerDefinition definition : definitions) {
        var schedule = definition.schedule();
        if (schedule != null) {
          try {
            backend.upsertSchedule(
                schedule.queue(),
                schedule.name(),
                schedule.cron(),
                ZoneId.of(schedule.zone()),
                schedule.payload().getBytes(StandardCharsets.UTF_8));
          } catch (RuntimeException e) {
            throw new IllegalStateException(
                "@LineupSchedule '"
                    + schedule.name()
                    + "' on "
                    + schedule.queue()
                    + " cannot be written: "
                    + e.getMessage(),
                e);
          }
        }
      }
    }
    if (properties.getWorker().isEnabled()) {
      try {
        for (HandlerDefinition definition : definitions) {
          if (definition.queue() != null) {
            startWorker(definition);
          }
        }
      } catch (RuntimeException e) {
        stop();
        throw e;
      }
    }
    started = true;
  }

  private void startWorker(HandlerDefinition definition) {
    HandlerMethod method = new HandlerMethod(definition.bean(), definition.method(), codec);
    LineupProperties.Worker defaults = properties.getWorker();
    int concurrency =
        definition.concurrency() == null ? defaults.getConcurrency() : definition.concurrency();
    WorkerOptions options =
        new WorkerOptions(concurrency, defaults.getIdleWait(), defaults.getShutdownGrace());
    RunningWorker worker;
    try {
      worker = backend.startWorker(definition.queue(), options, method::invoke);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "@LineupHandler " + method.describe() + " cannot start: " + e.getMessage(), e);
    }
    running.add(worker);
    LOG.info(
        "Lineup worker started for {} ({}, {} at once)",
        definition.queue(),
        method.describe(),
        concurrency);
    for (LineupWorkerListener listener : listeners) {
      listener.started(worker);
    }
  }

  @Override
  public void stop() {
    List<Thread> closing = new ArrayList<>();
    for (RunningWorker worker : running) {
      closing.add(Thread.ofVirtual().name("lineup-stop-" + worker.queue()).start(worker::close));
    }
    for (Thread thread : closing) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    running.clear();
    started = false;
  }

  @Override
  public boolean isRunning() {
    return started;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }

  /** The workers running now (empty before start, after stop, or with workers switched off). */
  public List<RunningWorker> workers() {
    return List.copyOf(running);
  }

  /** How many {@link LineupHandler} methods the context declares. */
  public long handlerCount() {
    return registrar.definitions().stream().filter(d -> d.queue() != null).count();
  }
}
