package io.lineup.server.auth;

import java.util.Locale;

/** What a namespace token may do in its namespace. */
public enum Scope {
  /** Publish jobs, read and cancel them. */
  PUBLISH,
  /** Lease jobs, ack, nack and extend them, read them. */
  CONSUME,
  /** Read and change queue settings, pause and resume, dead letters, read and cancel jobs. */
  MANAGE,
  /**
   * Read everything of the namespace and change nothing: queues, jobs, dead letters, endpoints,
   * tasks and rooms (a dashboard for people who watch but do not act).
   */
  READ;

  /** The name used in JSON, e.g. {@code publish}. */
  public String jsonName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The scope of a JSON name.
   *
   * @throws IllegalArgumentException when the name is not a scope
   */
  public static Scope fromJson(String name) {
    for (Scope scope : values()) {
      if (scope.jsonName().equals(name)) {
        return scope;
      }
    }
    throw new IllegalArgumentException(name);
  }
}
