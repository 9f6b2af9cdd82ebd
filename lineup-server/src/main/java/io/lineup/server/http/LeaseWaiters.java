package io.lineup.server.http;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The long-polls in progress on this server, so a shutdown can end them at once. */
public final class LeaseWaiters {
  private final Set<DisconnectWatch> watches = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /** Adds a watch; after {@link #interruptAll()} it is interrupted at once. */
  void add(DisconnectWatch watch) {
    watches.add(watch);
    if (closed) {
      watch.interrupt(DisconnectWatch.Cause.SHUTDOWN);
    }
  }

  void remove(DisconnectWatch watch) {
    watches.remove(watch);
  }

  /** Long-polls waiting now. */
  public int count() {
    return watches.size();
  }

  /** Ends every wait, and every wait that starts later (each answers 204, without a job). */
  public void interruptAll() {
    closed = true;
    watches.forEach(watch -> watch.interrupt(DisconnectWatch.Cause.SHUTDOWN));
  }
}
