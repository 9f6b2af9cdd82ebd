package io.lineup.server.dispatch;

import java.util.Locale;

/** How a task that ran ended. */
enum Outcome {
  SUCCEEDED,
  FAILED,
  TIMED_OUT;

  String json() {
    return name().toLowerCase(Locale.ROOT);
  }
}
