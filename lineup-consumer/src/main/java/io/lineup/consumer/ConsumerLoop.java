package io.lineup.consumer;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a {@link JobHandler} for the jobs a {@link LeaseSource} leases, {@code concurrency} at a
 * time, each on its own virtual thread: the one lease, extend and settle loop behind the engine's
 * worker, the client's remote worker and {@code lineup consume}.
 *
 * <p>One fetch thread leases as many jobs as there are free slots (up to the batch), with up to
 * {@link ConsumerOptions#callsInFlight()} calls on their way; replies are read in the order the
 * calls were sent, so jobs start in the order they were leased. A call that found no job makes the
 * thread wait on the source's {@link IdleWait} (or stop, with {@link
 * ConsumerOptions#stopWhenEmpty()}). A failed call is tried again after a back-off from 10 ms
 * doubling to 1 s. Each running job's lease is extended when half of what it has left is left; a
 * lost lease interrupts its handler, whose job is then not settled. A handler that returns acks its
 * job; one that throws fails it ({@link LeaseSource#fail}). {@link #close()} stops leasing, lets
 * running jobs finish within the shutdown grace, then interrupts them and gives their jobs back.
 *
 * @param <J> the source's leased job
 */
public final class ConsumerLoop<J> implements AutoCloseable {
  private static final long MAX_BACKOFF_MS = 1000;

  private final LeaseSource<J> source;
  private final JobHandler<J> handler;
  private final ConsumerOptions options;
  private final Heartbeats<J> heartbeats;
  private final Settler settler;
  private final ConsumerLog log;
  private final Map<String, RunningJob<J>> running = new ConcurrentHashMap<>();
  private final Semaphore slotFreed = new Semaphore(0);
  private final AtomicLong leased = new AtomicLong();
  private final AtomicLong handled = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile boolean leasing;
  private volatile boolean idling;
  private volatile RuntimeException leaseError;
  private Thread fetcher;

  /** A loop that has not started, logging with the JDK's logger of this class's name. */
  public ConsumerLoop(LeaseSource<J> source, JobHandler<J> handler, ConsumerOptions options) {
    this(source, handler, options, ConsumerLog.system(ConsumerLoop.class.getName()));
  }

  /**
   * A loop that has not started; {@link #start()} starts it.
   *
   * @param source where jobs are leased and settled
   * @param handler what runs each job
   * @param options how the loop runs
   * @param log where the loop reports a failed lease call, a lost lease or a job it could not
   *     settle
   */
  public ConsumerLoop(
      LeaseSource<J> source, JobHandler<J> handler, ConsumerOptions options, ConsumerLog log) {
    this.source = source;
    this.handler = handler;
    this.options = options;
    this.log = log;
    this.heartbeats = new Heartbeats<>(source, options.name() + "-heartbeat", log);
    this.settler = new Settler(source, log);
  }

  /** Starts leasing (once); returns this. */
  public synchronized ConsumerLoop<J> start() {
    if (!leasing && fetcher == null) {
      leasing = true;
      fetcher =
          Thread.ofVirtual()
              .name(options.name() + "-worker-" + options.label())
              .start(this::fetchLoop);
    }
    return this;
  }

  /** Jobs being run now. */
  public int inFlight() {
    return running.size();
  }

  /**
   * Jobs leased since start. While a lease call is on its way, the jobs it asked for count until
   * its reply comes; once the loop has ended, the count is exact.
   */
  public long leased() {
    return leased.get();
  }

  /** Jobs whose handler returned, since start. */
  public long handled() {
    return handled.get();
  }

  /** Jobs whose handler threw, since start. */
  public long failed() {
    return failed.get();
  }

  /**
   * Waits until the loop stopped leasing by itself (its limit reached, or no job with {@link
   * ConsumerOptions#stopWhenEmpty()}) and every job it leased has finished and been settled.
   *
   * @throws InterruptedException when the calling thread is interrupted
   * @throws RuntimeException the lease call's error that stopped the loop, with {@link
   *     ConsumerOptions#stopOnLeaseError()}
   */
  public void awaitEnd() throws InterruptedException {
    Thread thread;
    synchronized (this) {
      thread = fetcher;
    }
    if (thread != null) {
      thread.join();
    }
    while (!running.isEmpty()) {
      slotFreed.tryAcquire(100, TimeUnit.MILLISECONDS);
    }
    RuntimeException error = leaseError;
    if (error != null) {
      throw error;
    }
  }

  private void fetchLoop() {
    try (IdleWait idle = source.openIdleWait()) {
      fetch(idle);
    } catch (RuntimeException e) {
      log.log(Level.WARNING, () -> "The consumer of " + options.label() + " stopped leasing: " + e);
    } finally {
      leasing = false;
    }
  }

  private void fetch(IdleWait idle) {
    Deque<LeaseCall<J>> calls = new ArrayDeque<>();
    long backoff = 0;
    boolean drained = false;
    Duration advice = null;
    while (leasing) {
      if (!drained) {
        LeaseCall<J> sent;
        try {
          sent = sendIfWorthIt(calls);
        } catch (RuntimeException e) {
          if (stopsOn(e)) {
            break;
          }
          backoff = backOff(backoff, e);
          continue;
        }
        if (sent != null) {
          calls.add(sent);
          continue;
        }
      }
      LeaseCall<J> head = calls.peek();
      if (head == null) {
        if (drained) {
          drained = false;
          if (options.stopWhenEmpty() && advice == null) {
            break;
          }
          idle(idle, advice);
        } else if (limitReached()) {
          break;
        } else {
          awaitFreeSlot();
        }
        continue;
      }
      if (!head.isDone() && calls.size() < options.callsInFlight() && !drained) {
        // Woken by a freed slot (perhaps enough for the next call) or by this call's reply.
        awaitFreeSlot();
        continue;
      }
      calls.poll();
      LeaseReply<J> reply;
      try {
        reply = head.await();
        backoff = 0;
      } catch (RuntimeException e) {
        leased.addAndGet(-head.count());
        if (stopsOn(e)) {
          break;
        }
        backoff = backOff(backoff, e);
        continue;
      }
      takeUp(head, reply);
      // An empty answer to a call that asked for jobs: wait for a job to arrive (after the calls
      // still on their way) instead of asking again at once.
      drained = reply.jobs().isEmpty() && head.count() > 0;
      advice = reply.retryAfter();
    }
    // Calls sent before close() may have leased jobs: start them (close() gives them the grace and
    // then gives them back) rather than leave them leased until their lease ends.
    for (LeaseCall<J> call : calls) {
      try {
        takeUp(call, call.await());
      } catch (RuntimeException e) {
        leased.addAndGet(-call.count());
      }
    }
  }

  /** Starts the reply's jobs; the asked-for jobs that did not come no longer count as leased. */
  private void takeUp(LeaseCall<J> call, LeaseReply<J> reply) {
    leased.addAndGet(reply.jobs().size() - (long) call.count());
    for (J job : reply.jobs()) {
      dispatch(job);
    }
  }

  /** Whether a failed lease call ends the loop; its error is kept for awaitEnd(). */
  private boolean stopsOn(RuntimeException e) {
    if (!options.stopOnLeaseError() || !leasing) {
      return false;
    }
    leaseError = e;
    return true;
  }

  private boolean limitReached() {
    return options.limit() > 0 && leased.get() >= options.limit();
  }

  /**
   * Sends the next lease call when there is room for one: with no call on its way, when a slot is
   * free or the source has settlements to carry; with one on its way, when at least half the slots
   * are free besides those it asked for.
   *
   * @return the call sent, or null when none was worth sending
   */
  private LeaseCall<J> sendIfWorthIt(Deque<LeaseCall<J>> calls) {
    if (calls.size() >= options.callsInFlight()) {
      return null;
    }
    int asked = 0;
    for (LeaseCall<J> call : calls) {
      asked += call.count();
    }
    long free = options.concurrency() - running.size() - asked;
    if (!calls.isEmpty() && free < Math.max(1, options.concurrency() / 2)) {
      return null;
    }
    if (options.limit() > 0) {
      // leased counts the jobs of the calls on their way as leased until their replies come.
      free = Math.min(free, options.limit() - leased.get());
    }
    int count = (int) Math.max(0, Math.min(free, options.batch()));
    leased.addAndGet(count);
    LeaseCall<J> call;
    try {
      call = source.lease(count);
    } catch (RuntimeException e) {
      leased.addAndGet(-count);
      throw e;
    }
    if (call == null) {
      leased.addAndGet(-count);
      return null;
    }
    call.whenDone(slotFreed::release);
    return call;
  }

  private long backOff(long backoff, RuntimeException e) {
    long next = Math.min(MAX_BACKOFF_MS, Math.max(10, backoff * 2));
    log.log(
        Level.DEBUG,
        () ->
            "Lease from "
                + options.label()
                + " failed, retrying in "
                + next
                + " ms: "
                + e.getMessage());
    sleep(next);
    return next;
  }

  private void idle(IdleWait idle, Duration advice) {
    idling = true;
    try {
      idle.await(advice);
    } catch (InterruptedException e) {
      // close() interrupts the wait.
    } catch (RuntimeException e) {
      sleep(100);
    } finally {
      idling = false;
    }
  }

  private void dispatch(J job) {
    String id = source.id(job);
    RunningJob<J> run =
        new RunningJob<>(job, id, System.nanoTime() + source.leaseLeft(job).toNanos());
    running.put(id, run);
    heartbeats.start(run);
    Thread.ofVirtual().name(options.name() + "-job-" + id).start(() -> run(run));
  }

  private void run(RunningJob<J> run) {
    run.thread = Thread.currentThread();
    J job = run.job;
    JobObservation observation = JobObservation.start(options.observation(), source, job, log);
    // The settlement is made (or handed to the source) before the slot is freed, so close(), which
    // waits for the slots, never returns while a settlement is still on its way.
    try {
      byte[] result = handler.handle(job);
      handled.incrementAndGet();
      heartbeats.stop(run);
      if (!run.abandoned) {
        settler.settle(run.id, "ack", () -> source.ack(job, result));
      }
      if (idling || !leasing) {
        source.flush(false);
      }
      if (observation != null) {
        observation.returned(run.abandoned);
      }
    } catch (Throwable error) {
      failed.incrementAndGet();
      heartbeats.stop(run);
      if (!run.abandoned) {
        settler.settle(run.id, "settle", () -> source.fail(job, error));
      }
      if (observation != null) {
        observation.threw(error, run.abandoned);
      }
    } finally {
      // The observation ends before the slot is freed, so that a job's span has ended once
      // awaitEnd() or close() returns.
      if (observation != null) {
        observation.stop(log);
      }
      running.remove(run.id);
      slotFreed.release();
    }
  }

  private void awaitFreeSlot() {
    try {
      slotFreed.tryAcquire(100, TimeUnit.MILLISECONDS);
      slotFreed.drainPermits();
    } catch (InterruptedException e) {
      // close() interrupts.
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops leasing (a lease call waiting for jobs is interrupted), waits up to the shutdown grace
   * for running jobs, then interrupts the rest and gives their jobs back ({@link
   * LeaseSource#giveBack}). Deferred settlements are sent before it returns.
   */
  @Override
  public void close() {
    Thread thread;
    synchronized (this) {
      thread = fetcher;
      fetcher = null;
      leasing = false;
    }
    if (thread == null) {
      heartbeats.shutdown();
      return;
    }
    thread.interrupt();
    try {
      thread.join(Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    source.flush(true);
    long deadline = System.nanoTime() + options.shutdownGrace().toNanos();
    while (!running.isEmpty() && System.nanoTime() < deadline) {
      awaitFreeSlot();
    }
    for (RunningJob<J> run : running.values()) {
      run.abandoned = true;
      heartbeats.stop(run);
      run.interrupt();
      settler.settle(run.id, "give back", () -> source.giveBack(run.job));
    }
    source.flush(false);
    heartbeats.shutdown();
  }
}
