package io.lineup.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Maps {@link QueueSettings} to the meta-hash fields of {@code lib/settings.lua} and back. */
final class SettingsCodec {
  private SettingsCodec() {}

  /** Name/value pairs for the fields a change sets, checked first. */
  static List<String> encode(QueueSettings change) {
    List<String> pairs = new ArrayList<>();
    if (change.paused() != null) {
      pairs.add("paused");
      pairs.add(change.paused() ? "1" : "0");
    }
    if (change.rateLimit() != null) {
      range("rateLimit", change.rateLimit(), 0, QueueSettings.MAX_RATE_LIMIT);
      pairs.add("rate");
      pairs.add(change.rateLimit().toString());
    }
    if (change.concurrencyLimit() != null) {
      range("concurrencyLimit", change.concurrencyLimit(), 0, QueueSettings.MAX_CONCURRENCY_LIMIT);
      pairs.add("concurrency");
      pairs.add(change.concurrencyLimit().toString());
    }
    if (change.maxAttempts() != null) {
      range("maxAttempts", change.maxAttempts(), 1, Limits.MAX_ATTEMPTS);
      pairs.add("max_attempts");
      pairs.add(change.maxAttempts().toString());
    }
    if (change.timeToRun() != null) {
      Checks.duration("timeToRun", change.timeToRun(), Limits.MIN_TTR_MS, Limits.MAX_TTR_MS);
      pairs.add("ttr_ms");
      pairs.add(Long.toString(change.timeToRun().toMillis()));
    }
    if (change.backoff() != null) {
      Backoff b = change.backoff();
      pairs.addAll(
          List.of(
              "backoff", b.kind().name().toLowerCase(Locale.ROOT),
              "backoff_ms", Long.toString(b.initial().toMillis()),
              "backoff_max_ms", Long.toString(b.max().toMillis()),
              "backoff_jitter", Double.toString(b.jitter())));
    }
    if (change.retention() != null) {
      Checks.duration("retention", change.retention(), 0, Limits.MAX_UNIQUE_WINDOW_MS);
      pairs.add("retention_ms");
      pairs.add(Long.toString(change.retention().toMillis()));
    }
    if (change.retentionMax() != null) {
      range("retentionMax", change.retentionMax(), 0, 10_000_000);
      pairs.add("retention_max");
      pairs.add(change.retentionMax().toString());
    }
    return pairs;
  }

  /** The effective settings from the names and values the stats script returns. */
  static QueueSettings decode(Map<String, String> s) {
    return new QueueSettings(
        "1".equals(s.get("paused")),
        (int) number(s, "rate"),
        (int) number(s, "concurrency"),
        (int) number(s, "max_attempts"),
        Duration.ofMillis(number(s, "ttr_ms")),
        new Backoff(
            Backoff.Kind.valueOf(s.get("backoff").toUpperCase(Locale.ROOT)),
            Duration.ofMillis(number(s, "backoff_ms")),
            Duration.ofMillis(number(s, "backoff_max_ms")),
            Double.parseDouble(s.get("backoff_jitter"))),
        Duration.ofMillis(number(s, "retention_ms")),
        (int) number(s, "retention_max"));
  }

  private static long number(Map<String, String> s, String name) {
    return (long) Double.parseDouble(s.get(name));
  }

  private static void range(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new InvalidArgumentException(
          field, "must be between " + min + " and " + max + ", got " + value);
    }
  }
}
