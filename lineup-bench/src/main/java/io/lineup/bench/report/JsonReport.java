package io.lineup.bench.report;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A run as one JSON object:
 *
 * <pre>
 * { "mode": "full" | "quick" | "smoke", "seconds": wall time of the run,
 *   "environment": { redis_version, redis_address, redis_own_process, cores, java },
 *   "counts": { the sizes used },
 *   "figures": { name: value },            units: "units"; every value is positive
 *   "units": { name: "/s" | "ms" | "µs" | "B" },
 *   "ratio_to_raw": { name: ratio },       absent for bytes_per_job
 *   "redis_cpu_us_per_job": { name: µs },  Redis CPU (user + system) per job
 *   "bench_cpu_us_per_job": { name: µs },  the bench JVM's CPU (engine + load) per job
 *   "targets": { name: { "target": text, "reached": true | false | null } },
 *   "skipped": { name: reason } }
 * </pre>
 */
public final class JsonReport {
  private JsonReport() {}

  /** The report as one line of JSON. */
  public static String of(BenchReport report) {
    double reference = report.reference();
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("mode", report.mode());
    root.put("seconds", report.seconds());
    root.put("environment", report.environment());
    root.put("counts", report.counts());
    Map<String, Object> figures = new LinkedHashMap<>();
    Map<String, Object> units = new LinkedHashMap<>();
    Map<String, Object> ratios = new LinkedHashMap<>();
    Map<String, Object> cpu = new LinkedHashMap<>();
    Map<String, Object> benchCpu = new LinkedHashMap<>();
    for (Figure figure : report.figures()) {
      figures.put(figure.name(), figure.value());
      units.put(figure.name(), figure.unit().symbol());
      double ratio = figure.ratioTo(reference);
      if (Double.isFinite(ratio)) {
        ratios.put(figure.name(), ratio);
      }
      cpu.put(figure.name(), figure.redisCpuMicrosPerJob());
      benchCpu.put(figure.name(), figure.benchCpuMicrosPerJob());
    }
    root.put("figures", figures);
    root.put("units", units);
    root.put("ratio_to_raw", ratios);
    root.put("redis_cpu_us_per_job", cpu);
    root.put("bench_cpu_us_per_job", benchCpu);
    Map<String, Double> values = report.values();
    Map<String, Object> targets = new LinkedHashMap<>();
    for (Target target : Target.ALL) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("target", target.description());
      entry.put("reached", target.reachedBy(values));
      targets.put(target.figure(), entry);
    }
    root.put("targets", targets);
    root.put("skipped", report.skipped());
    return JsonWriter.write(root);
  }
}
