package io.lineup.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What a run of the command line reads and writes besides its arguments: the environment variables
 * it looks up ({@code LINEUP_URL}, {@code LINEUP_TOKEN}), the folder relative paths start from
 * ({@code ./lineup-data/admin-token}) and its three standard streams. {@link #system()} is the
 * process's own; a test hands in its own to run commands inside its JVM.
 *
 * @param env the environment variables, by name
 * @param workDir the folder relative paths are resolved against
 * @param in standard input
 * @param out standard output
 * @param err standard error
 */
record CliContext(
    Map<String, String> env, Path workDir, InputStream in, PrintStream out, PrintStream err) {
  CliContext {
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(workDir, "workDir");
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
  }

  /** The process's environment, working folder and standard streams. */
  static CliContext system() {
    return new CliContext(System.getenv(), Path.of(""), System.in, System.out, System.err);
  }

  /** The environment variable's value, or null when it is not set. */
  String env(String name) {
    return env.get(name);
  }

  /** The path resolved against {@link #workDir()} (an absolute path stays as it is). */
  Path resolve(Path path) {
    return workDir.resolve(path);
  }
}
