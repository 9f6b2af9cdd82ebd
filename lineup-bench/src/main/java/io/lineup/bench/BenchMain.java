package io.lineup.bench;

import io.lineup.bench.report.BenchReport;
import io.lineup.bench.report.JsonReport;
import io.lineup.bench.report.ReportTable;
import java.io.PrintStream;
import java.util.List;

/**
 * The {@code lineup-bench} command: runs every scenario and prints a table (standard output), or
 * with {@code --json} one JSON object on standard output and the table on standard error. Progress
 * goes to standard error. Exit code 0 when the run completed, 1 when a scenario failed, 2 for a bad
 * command line.
 */
public final class BenchMain {
  private BenchMain() {}

  /** Runs the bench with the command-line options {@link BenchOptions#USAGE} lists. */
  public static void main(String[] args) {
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      System.out.print(BenchOptions.USAGE);
      return;
    }
    BenchOptions options;
    try {
      options = BenchOptions.parse(List.of(args), System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.print(BenchOptions.USAGE);
      System.exit(2);
      return;
    }
    BenchReport report;
    try {
      report = Bench.run(options, System.err);
    } catch (RuntimeException e) {
      System.err.println("The bench failed: " + e.getMessage());
      e.printStackTrace(System.err);
      System.exit(1);
      return;
    }
    PrintStream table = options.json() ? System.err : System.out;
    table.println();
    table.print(ReportTable.of(report));
    table.flush();
    if (options.json()) {
      System.out.println(JsonReport.of(report));
    }
    System.out.flush();
    // Lettuce's and the HTTP client's pools are closed; exit at once rather than wait on
    // stragglers.
    System.exit(0);
  }
}
