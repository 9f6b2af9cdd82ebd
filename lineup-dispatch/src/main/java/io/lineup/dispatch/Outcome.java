package io.lineup.dispatch;

import java.util.Locale;

/** How a task ended (as its record and its callback say). */
enum Outcome {
  SUCCEEDED,
  FAILED,
  TIMED_OUT,
  CANCELLED;

  String json() {
    return name().toLowerCase(Locale.ROOT);
  }
}
