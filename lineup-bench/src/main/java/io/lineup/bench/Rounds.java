package io.lineup.bench;

import io.lineup.bench.report.Figure;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Runs a measured phase {@link Counts#rounds()} times and keeps the median round.
 *
 * <p>Why: on a shared two-core machine one phase of 5 to 10 s now and then loses a part of a core
 * to something else (the server's CPU per HTTP publish varied from 89 to 158 µs between runs of the
 * same build). The median of three rounds is what the machine does most of the time; every round is
 * printed, so a reader sees the spread.
 */
final class Rounds {
  private Rounds() {}

  /**
   * The round whose value is the median of the rounds run (the lower middle one for an even count).
   *
   * @param round runs round {@code r} (from 1) and returns its figure
   */
  static Figure median(BenchContext context, IntFunction<Figure> round) {
    List<Figure> figures = new ArrayList<>();
    int rounds = Math.max(1, context.counts().rounds());
    for (int r = 1; r <= rounds; r++) {
      Figure figure = round.apply(r);
      context.say(
          "%s: round %d of %d: %,.1f %s",
          figure.name(), r, rounds, figure.value(), figure.unit().symbol());
      figures.add(figure);
    }
    figures.sort(Comparator.comparingDouble(Figure::value));
    return figures.get(middle(figures.size()));
  }

  /**
   * The median of {@code values} (the lower middle one for an even count); does not change them.
   */
  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[middle(sorted.length)];
  }

  /** The index of the median in a sorted list of {@code size} values. */
  private static int middle(int size) {
    return (size - 1) / 2;
  }
}
