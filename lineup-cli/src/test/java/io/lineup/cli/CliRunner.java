package io.lineup.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs {@code lineup} commands for a test, each with its own standard streams, in an empty folder
 * and with only the given environment variables: inside the test's JVM ({@link #inProcess}), the
 * way most tests run them, or as a process of its own ({@link #asProcess}), the way a shell runs
 * them, for what only a process shows (its exit status, its real standard input and error, a child
 * command's inherited error stream). Each JVM start costs about half a second of CPU, many times
 * that on a busy machine, so only those tests start one.
 */
final class CliRunner {
  /** What a run printed and how it ended. */
  record Run(int exitCode, String stdout, String stderr) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
  }

  /** Longest a command may take before the test fails. */
  private static final long LONGEST_RUN_MINUTES = 2;

  private final Map<String, String> env;
  private final boolean process;
  private final Path workDir;

  private CliRunner(Map<String, String> env, boolean process) {
    this.env = Map.copyOf(env);
    this.process = process;
    try {
      // An empty folder: no ./lineup-data/admin-token there to fall back on.
      this.workDir = Files.createTempDirectory("lineup-cli-test-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs commands inside this JVM, with these environment variables (LINEUP_URL, LINEUP_TOKEN). */
  static CliRunner inProcess(Map<String, String> env) {
    return new CliRunner(env, false);
  }

  /** Runs each command as a JVM of its own, with these environment variables. */
  static CliRunner asProcess(Map<String, String> env) {
    return new CliRunner(env, true);
  }

  Path workDir() {
    return workDir;
  }

  Run run(String... args) {
    return runWithInput(null, args);
  }

  /** Runs with these bytes on standard input (none: an empty input). */
  Run runWithInput(Path stdin, String... args) {
    try {
      return process ? runProcess(stdin, args) : runHere(stdin, args);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private Run runHere(Path stdin, String[] args) throws IOException, InterruptedException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (InputStream in =
            stdin == null ? new ByteArrayInputStream(new byte[0]) : Files.newInputStream(stdin);
        PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      CliContext context = new CliContext(env, workDir, in, outStream, errStream);
      AtomicInteger exitCode = new AtomicInteger();
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      // Its own thread, so that a command that never ends fails the test instead of hanging it.
      Thread run =
          Thread.ofPlatform()
              .name("lineup " + String.join(" ", args))
              .start(() -> {
                try {
                  exitCode.set(LineupCli.run(context, args));
                } catch (Throwable t) {
                  thrown.set(t);
                }
              });
      run.join(TimeUnit.MINUTES.toMillis(LONGEST_RUN_MINUTES));
      if (run.isAlive()) {
        run.interrupt();
        throw tooLong(args);
      }
      if (thrown.get() != null) {
        throw new AssertionError("lineup " + String.join(" ", args) + " threw", thrown.get());
      }
      return new Run(
          exitCode.get(),
          out.toString(StandardCharsets.UTF_8),
          err.toString(StandardCharsets.UTF_8));
    }
  }

  private Run runProcess(Path stdin, String[] args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Xshare:auto");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LineupCli.class.getName());
    command.addAll(List.of(args));
    Path out = Files.createTempFile(workDir, "stdout", ".txt");
    Path err = Files.createTempFile(workDir, "stderr", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().remove("LINEUP_URL");
    builder.environment().remove("LINEUP_TOKEN");
    builder.environment().putAll(env);
    if (stdin != null) {
      builder.redirectInput(stdin.toFile());
    }
    Process started = builder.start();
    if (stdin == null) {
      started.getOutputStream().close();
    }
    if (!started.waitFor(LONGEST_RUN_MINUTES, TimeUnit.MINUTES)) {
      started.destroyForcibly();
      throw tooLong(args);
    }
    return new Run(
        started.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static AssertionError tooLong(String[] args) {
    return new AssertionError(
        "lineup "
            + String.join(" ", args)
            + " did not finish in "
            + LONGEST_RUN_MINUTES
            + " minutes");
  }
}
