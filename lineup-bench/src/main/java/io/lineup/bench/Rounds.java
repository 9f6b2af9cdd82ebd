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
    return interleaved(context, List.of(round)).get(0);
  }

  /**
   * Runs several measured phases round by round, taking turns, and keeps each phase's median round.
   * Odd rounds run the phases in the given order, even rounds in reverse (A B, B A, A B), so a slow
   * spell of the shared host that lasts a few rounds weighs on every phase alike: figures compared
   * with each other (such as {@code consume_per_s_1m} against {@code consume_per_s}) are then
   * measured under the same conditions.
   *
   * @param phases each runs round {@code r} (from 1) of one figure and returns it
   * @return the median figure of each phase, in the order of {@code phases}
   */
  static List<Figure> interleaved(BenchContext context, List<IntFunction<Figure>> phases) {
    int rounds = Math.max(1, context.counts().rounds());
    List<List<Figure>> figures = new ArrayList<>();
    phases.forEach(phase -> figures.add(new ArrayList<>()));
    for (int r = 1; r <= rounds; r++) {
      for (int phase : order(phases.size(), r)) {
        Figure figure = phases.get(phase).apply(r);
        context.say(
            "%s: round %d of %d: %,.1f %s",
            figure.name(), r, rounds, figure.value(), figure.unit().symbol());
        figures.get(phase).add(figure);
      }
    }
    List<Figure> medians = new ArrayList<>();
    for (List<Figure> phase : figures) {
      phase.sort(Comparator.comparingDouble(Figure::value));
      medians.add(phase.get(middle(phase.size())));
    }
    return medians;
  }

  /** The order in which round {@code round} (from 1) runs {@code count} phases. */
  static List<Integer> order(int count, int round) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      order.add(round % 2 == 1 ? i : count - 1 - i);
    }
    return order;
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
