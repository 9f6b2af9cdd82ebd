package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.KeyFields;
import io.lineup.api.resource.FairKey;
import io.lineup.api.resource.FairKeyCounts;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.KeyCounts;
import io.lineup.core.model.KeySettings;
import io.lineup.core.model.KeyStatus;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.JsonFields;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON of a fair queue's keys ({@code …/keys}): a key's settings body read into the engine's
 * {@link KeySettings} (names of {@link KeyFields}), and the engine's {@link KeyStatus} and {@link
 * KeyCounts} written as the API's {@link FairKey} and {@link FairKeyCounts}.
 */
final class KeyJson {
  /** Shortest rate period read, in milliseconds (the engine's bound). */
  static final long MIN_RATE_PERIOD_MS = 10;

  /** Longest rate period read, in milliseconds: a day (the engine's bound). */
  static final long MAX_RATE_PERIOD_MS = Duration.ofDays(1).toMillis();

  /** The engine's field names (its {@link InvalidArgumentException#field()}) as the body's. */
  private static final Map<String, String> ENGINE_FIELDS =
      Map.of("ratePeriod", KeyFields.RATE_PERIOD_MS, "maxWaiting", KeyFields.MAX_WAITING);

  private KeyJson() {}

  /**
   * A key's settings body: every value optional (absent or null takes the queue's), paused false
   * when absent.
   *
   * @throws ApiException 400 naming the first field that is wrong or unknown
   */
  static KeySettings settings(JsonNode body) {
    JsonFields f = JsonFields.of(body, "", KeyFields.ALL);
    Integer weight = f.optionalInt(KeyFields.WEIGHT, 1, KeySettings.MAX_WEIGHT);
    Integer concurrency = f.optionalInt(KeyFields.CONCURRENCY, 0, KeySettings.MAX_CONCURRENCY);
    Integer rate = f.optionalInt(KeyFields.RATE, 0, KeySettings.MAX_RATE);
    Long period = f.optionalLong(KeyFields.RATE_PERIOD_MS, MIN_RATE_PERIOD_MS, MAX_RATE_PERIOD_MS);
    Integer maxWaiting = f.optionalInt(KeyFields.MAX_WAITING, 0, KeySettings.MAX_WAITING);
    Boolean paused = f.optionalBoolean(KeyFields.PAUSED);
    try {
      return new KeySettings(
          weight,
          concurrency,
          rate,
          period == null ? null : Duration.ofMillis(period),
          maxWaiting,
          Boolean.TRUE.equals(paused));
    } catch (InvalidArgumentException e) {
      throw ApiException.invalidField(ENGINE_FIELDS.getOrDefault(e.field(), e.field()), e.reason());
    }
  }

  /**
   * What the keys of {@code GET …/keys} are ranked by.
   *
   * @param text the {@code by} query parameter, or null for {@code waiting}
   * @throws ApiException 400 naming {@code by} for another value
   */
  static KeyCounts.By by(String text) {
    if (text == null || text.isEmpty()) {
      return KeyCounts.By.WAITING;
    }
    if (!KeyFields.BY_VALUES.contains(text)) {
      throw ApiException.invalidField(
          KeyFields.BY, "must be waiting or leased, got '" + abbreviate(text) + "'");
    }
    return KeyCounts.By.valueOf(text.toUpperCase(Locale.ROOT));
  }

  /** A key as the API shows it. */
  static FairKey view(KeyStatus status) {
    return new FairKey(
        status.key(),
        settings(status.own()),
        settings(status.effective()),
        status.effective().paused(),
        status.waiting(),
        status.leased(),
        status.parked());
  }

  /** The keys with most jobs as the API shows them. */
  static FairKeyCounts view(KeyCounts counts, KeyCounts.By by) {
    return new FairKeyCounts(
        counts.keysWaiting(),
        counts.keysLeased(),
        by.name().toLowerCase(Locale.ROOT),
        counts.top().stream().map(c -> new FairKeyCounts.Count(c.key(), c.count())).toList());
  }

  private static FairKey.Settings settings(KeySettings s) {
    return new FairKey.Settings(
        s.weight(),
        s.concurrency(),
        s.rate(),
        s.ratePeriod() == null ? null : s.ratePeriod().toMillis(),
        s.maxWaiting());
  }

  private static String abbreviate(String text) {
    return text.length() <= 32 ? text : text.substring(0, 32) + "…";
  }
}
