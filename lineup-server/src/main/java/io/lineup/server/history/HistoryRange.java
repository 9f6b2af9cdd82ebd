package io.lineup.server.history;

import java.util.Locale;

/**
 * How far back a history read goes, and at which resolution: the last 15 minutes at one reading a
 * second, the last hour or day at one reading a minute.
 */
public enum HistoryRange {
  /** The last 15 minutes, a reading per second (900 readings). */
  MINUTES_15("15m", false, 900),
  /** The last hour, a reading per minute (60 readings). */
  HOUR_1("1h", true, 60),
  /** The last 24 hours, a reading per minute (1,440 readings). */
  HOURS_24("24h", true, 1440);

  private final String text;
  private final boolean minutes;
  private final int readings;

  HistoryRange(String text, boolean minutes, int readings) {
    this.text = text;
    this.minutes = minutes;
    this.readings = readings;
  }

  /** As the API writes it: {@code 15m}, {@code 1h} or {@code 24h}. */
  public String text() {
    return text;
  }

  /** Whether it reads the minute readings (else the second readings). */
  public boolean minutes() {
    return minutes;
  }

  /** How many readings it covers at most. */
  public int readings() {
    return readings;
  }

  /** The range a request names, or null when it names none of them. */
  public static HistoryRange of(String text) {
    if (text == null) {
      return null;
    }
    for (HistoryRange range : values()) {
      if (range.text.equals(text.toLowerCase(Locale.ROOT))) {
        return range;
      }
    }
    return null;
  }
}
