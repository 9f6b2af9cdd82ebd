package io.lineup.bench.report;

import java.util.Locale;
import java.util.Map;

/** A run as a text table: one row per figure, with its ratio, Redis CPU per job and target. */
public final class ReportTable {
  private static final String ROW = "%-26s %14s %-3s %9s %11s %11s  %-36s %s%n";

  private ReportTable() {}

  /** The report as printed at the end of a run. */
  public static String of(BenchReport report) {
    StringBuilder out = new StringBuilder();
    String label = report.mode().toUpperCase(Locale.ROOT);
    out.append(
        String.format(
            Locale.ROOT,
            "Lineup bench, %s run%s (%.0f s)%n",
            label,
            report.mode().equals("full") ? "" : " (reduced counts: not comparable with a full run)",
            report.seconds()));
    out.append("  environment: ").append(join(report.environment())).append('\n');
    out.append("  counts:      ").append(join(report.counts())).append('\n');
    out.append('\n');
    out.append(
        String.format(
            Locale.ROOT,
            ROW,
            "figure",
            "value",
            "",
            "× raw",
            "redis µs/job",
            "bench µs/job",
            "target",
            "reached"));
    double reference = report.reference();
    Map<String, Double> values = report.values();
    for (Figure figure : report.figures()) {
      Target target = Target.of(figure.name());
      Boolean reached = target == null ? null : target.reachedBy(values);
      out.append(
          String.format(
              Locale.ROOT,
              ROW,
              figure.name(),
              value(figure.value()),
              figure.unit().symbol(),
              ratio(figure.ratioTo(reference)),
              String.format(Locale.ROOT, "%.1f", figure.redisCpuMicrosPerJob()),
              String.format(Locale.ROOT, "%.1f", figure.benchCpuMicrosPerJob()),
              target == null
                  ? (figure.name().equals(BenchReport.REFERENCE) ? "(reference)" : "")
                  : target.description(),
              reached == null ? "" : reached ? "yes" : "NO"));
    }
    for (Map.Entry<String, String> skip : report.skipped().entrySet()) {
      out.append(
          String.format(
              Locale.ROOT, "%-26s %14s     skipped: %s%n", skip.getKey(), "-", skip.getValue()));
    }
    long reached =
        Target.ALL.stream().filter(t -> Boolean.TRUE.equals(t.reachedBy(values))).count();
    long measured = Target.ALL.stream().filter(t -> t.reachedBy(values) != null).count();
    out.append(
        String.format(
            Locale.ROOT,
            "%ntargets reached: %d of %d measured (%d defined)%n",
            reached,
            measured,
            Target.ALL.size()));
    return out.toString();
  }

  private static String value(double value) {
    if (Math.abs(value) >= 100) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    return String.format(Locale.ROOT, "%.2f", value);
  }

  private static String ratio(double ratio) {
    if (!Double.isFinite(ratio)) {
      return "-";
    }
    return String.format(Locale.ROOT, ratio >= 100 ? "%,.0f" : "%.3f", ratio);
  }

  private static String join(Map<String, Object> values) {
    StringBuilder out = new StringBuilder();
    values.forEach((k, v) -> out.append(out.isEmpty() ? "" : ", ").append(k).append('=').append(v));
    return out.toString();
  }
}
