package io.lineup.server;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * What happened to every job of a fault test, by id: how its publish was answered, how often it was
 * leased and how often its ack was answered 204. The counts the guarantees table speaks of.
 */
final class JobLedger {
  /** How a publish was answered. */
  enum Publish {
    /** 201 to a publish that waited for a replica. */
    DURABLE,
    /** 201 to a publish that did not wait for replicas. */
    PLAIN,
    /** 503 replication_timeout: written, but no replica confirmed it in time. */
    UNCONFIRMED
  }

  private final Map<String, Publish> published = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> leased = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> acked = new ConcurrentHashMap<>();

  void published(String id, Publish how) {
    published.merge(id, how, (before, now) -> before == Publish.DURABLE ? before : now);
  }

  void leased(String id) {
    leased.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
  }

  void acked(String id) {
    acked.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
  }

  /** Jobs whose publish was answered this way. */
  Set<String> published(Publish how) {
    return published.entrySet().stream()
        .filter(e -> e.getValue() == how)
        .map(Map.Entry::getKey)
        .collect(Collectors.toSet());
  }

  /** Jobs whose publish was answered 201 (durable or plain). */
  int confirmedCount() {
    return published(Publish.DURABLE).size() + published(Publish.PLAIN).size();
  }

  /** Of the jobs published this way, those never acked. */
  Set<String> neverAcked(Publish how) {
    return published(how).stream().filter(id -> !acked.containsKey(id)).collect(Collectors.toSet());
  }

  /** Jobs acked at least once. */
  int ackedCount() {
    return acked.size();
  }

  /** Jobs whose ack was answered 204 more than once (never, with one ack per lease). */
  long ackedMoreThanOnce() {
    return acked.values().stream().filter(n -> n.get() > 1).count();
  }

  /** Jobs leased more than once (redeliveries). */
  long leasedMoreThanOnce() {
    return leased.values().stream().filter(n -> n.get() > 1).count();
  }

  /**
   * Jobs leased whose publish was never answered 201 or replication_timeout: written, but the
   * answer was lost (the connection dropped, a 503 after the write) and no retry was answered.
   */
  long leasedUnanswered() {
    return leased.keySet().stream().filter(id -> !published.containsKey(id)).count();
  }

  /** One line with every count, for the test's output. */
  String summary() {
    return String.format(
        "published durable %d, plain %d, unconfirmed %d; acked %d; never acked: durable %d,"
            + " plain %d, unconfirmed %d; leased more than once %d; acked more than once %d;"
            + " leased without an answered publish %d",
        published(Publish.DURABLE).size(),
        published(Publish.PLAIN).size(),
        published(Publish.UNCONFIRMED).size(),
        ackedCount(),
        neverAcked(Publish.DURABLE).size(),
        neverAcked(Publish.PLAIN).size(),
        neverAcked(Publish.UNCONFIRMED).size(),
        leasedMoreThanOnce(),
        ackedMoreThanOnce(),
        leasedUnanswered());
  }
}
