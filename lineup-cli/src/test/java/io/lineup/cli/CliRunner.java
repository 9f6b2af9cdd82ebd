package io.lineup.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs {@code lineup} as its own process, the way a shell or a script does. */
final class CliRunner {
  /** What a run printed and how it ended. */
  record Run(int exitCode, String stdout, String stderr) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
  }

  private final Map<String, String> env;
  private final Path workDir;

  /** A runner whose commands see these environment variables (LINEUP_URL, LINEUP_TOKEN). */
  CliRunner(Map<String, String> env) {
    this.env = env;
    try {
      // An empty folder: no ./lineup-data/admin-token there to fall back on.
      this.workDir = Files.createTempDirectory("lineup-cli-test-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Path workDir() {
    return workDir;
  }

  Run run(String... args) {
    return runWithInput(null, args);
  }

  /** Runs with these bytes on standard input (none: an empty input). */
  Run runWithInput(Path stdin, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Xshare:auto");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LineupCli.class.getName());
    command.addAll(List.of(args));
    try {
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
      Process process = builder.start();
      if (stdin == null) {
        process.getOutputStream().close();
      }
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError(
            "lineup " + String.join(" ", args) + " did not finish in 2 minutes");
      }
      return new Run(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
