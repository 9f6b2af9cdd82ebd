package io.lineup.bench;

import io.lineup.bench.report.Figure;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;

/**
 * Runs a measured phase several times ({@link Counts#rounds()}, {@link Counts#consumeRounds()}) and
 * keeps the median round.
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
   * @param rounds how many rounds to run (at least one is)
   * @param round runs round {@code r} (from 1) and returns its figure
   */
  static Figure median(BenchContext context, int rounds, IntFunction<Figure> round) {
    return medianRound(context, rounds, r -> List.of(round.apply(r))).get(0);
  }

  /**
   * The figures of the round whose first figure is the median of the rounds' first figures (the
   * lower middle one for an even count): for a phase that measures several figures at once, all
   * reported from the same round. Every round's first figure is printed.
   *
   * @param count how many rounds to run (at least one is)
   * @param round runs round {@code r} (from 1) and returns its figures, the one judged first
   */
  static List<Figure> medianRound(
      BenchContext context, int count, IntFunction<List<Figure>> round) {
    int rounds = Math.max(1, count);
    List<List<Figure>> measured = new ArrayList<>();
    for (int r = 1; r <= rounds; r++) {
      List<Figure> figures = round.apply(r);
      Figure first = figures.get(0);
      context.say(
          "%s: round %d of %d: %,.1f %s",
          first.name(), r, rounds, first.value(), first.unit().symbol());
      measured.add(figures);
    }
    return medianByFirst(measured);
  }

  /**
   * Of rounds of several figures each, the round whose first figure is the median (the lower middle
   * one for an even count).
   */
  static List<Figure> medianByFirst(List<List<Figure>> rounds) {
    List<List<Figure>> sorted = new ArrayList<>(rounds);
    sorted.sort(Comparator.comparingDouble(figures -> figures.get(0).value()));
    return sorted.get(middle(sorted.size()));
  }

  /**
   * Two figures judged as a ratio of one to the other ({@code second / first}), from the same
   * round: the round whose ratio is the median of the rounds' ratios. The two take turns round by
   * round ({@link #order}), so each round's pair was measured back to back under the same
   * conditions of the shared host; the median of the pair ratios is then robust to a slow spell
   * that hits one round, where the ratio of two separate medians is not (a spell over the first
   * deep round and the last shallow one made two separate medians differ by 15 % while the three
   * rounds' own ratios were 0.99, 0.85 and 0.98).
   *
   * @param count how many round pairs to run (at least one is)
   * @param first runs round {@code r} (from 1) of the figure the other is compared with
   * @param second runs round {@code r} of the compared figure
   * @return the two figures of the median round: first, then second
   */
  static List<Figure> medianPair(
      BenchContext context, int count, IntFunction<Figure> first, IntFunction<Figure> second) {
    List<List<Figure>> rounds = alternate(context, count, List.of(first, second));
    return rounds.get(medianRatioRound(context, rounds, 1, 0, Figure::value, ""));
  }

  /**
   * The index of the round (from 0) whose ratio of two of its figures is the median of the rounds'
   * ratios (the lower middle one for an even count); prints every round's ratio and the one chosen.
   *
   * @param rounds each round's figures
   * @param over the index in a round of the figure divided
   * @param under the index in a round of the figure it is divided by
   * @param value what of each figure is divided: its value, or its Redis CPU per job
   * @param what printed after the names, saying what is divided when it is not the value
   */
  static int medianRatioRound(
      BenchContext context,
      List<List<Figure>> rounds,
      int over,
      int under,
      ToDoubleFunction<Figure> value,
      String what) {
    int chosen = medianRatioRound(rounds, over, under, value);
    StringBuilder ratios = new StringBuilder();
    for (List<Figure> round : rounds) {
      ratios
          .append(ratios.isEmpty() ? "" : ", ")
          .append(String.format("%.3f", ratio(round, over, under, value)));
    }
    context.say(
        "%s / %s%s round by round: %s; reported: round %d",
        rounds.get(0).get(over).name(), rounds.get(0).get(under).name(), what, ratios, chosen + 1);
    return chosen;
  }

  /**
   * The index of the round (from 0) whose ratio of two of its figures is the median of the rounds'
   * ratios (the lower middle one for an even count).
   *
   * @param rounds each round's figures
   * @param over the index in a round of the figure divided
   * @param under the index in a round of the figure it is divided by
   * @param value what of each figure is divided: its value, or its Redis CPU per job
   */
  static int medianRatioRound(
      List<List<Figure>> rounds, int over, int under, ToDoubleFunction<Figure> value) {
    return medianRound(rounds, round -> ratio(round, over, under, value));
  }

  private static double ratio(
      List<Figure> round, int over, int under, ToDoubleFunction<Figure> value) {
    return value.applyAsDouble(round.get(over)) / value.applyAsDouble(round.get(under));
  }

  /**
   * The index of the round (from 0) whose {@code key} is the median of the rounds' keys (the lower
   * middle one for an even count).
   *
   * @param rounds each round's figures
   * @param key what a round is judged by, for example a ratio of two of its figures
   */
  static int medianRound(List<List<Figure>> rounds, ToDoubleFunction<List<Figure>> key) {
    List<Integer> indexes = new ArrayList<>();
    for (int i = 0; i < rounds.size(); i++) {
      indexes.add(i);
    }
    indexes.sort(Comparator.comparingDouble(i -> key.applyAsDouble(rounds.get(i))));
    return indexes.get(middle(indexes.size()));
  }

  /**
   * Runs several measured phases round by round, taking turns: odd rounds run the phases in the
   * given order, even rounds in reverse (A B, B A, A B), so a slow spell of the shared host that
   * lasts a few rounds weighs on every phase alike. Every round's figure is printed.
   *
   * @param count how many rounds to run (at least one is)
   * @param phases each runs round {@code r} (from 1) of one figure and returns it
   * @return each round's figures, in the order of {@code phases}
   */
  static List<List<Figure>> alternate(
      BenchContext context, int count, List<IntFunction<Figure>> phases) {
    int rounds = Math.max(1, count);
    List<List<Figure>> figures = new ArrayList<>();
    for (int r = 1; r <= rounds; r++) {
      Figure[] round = new Figure[phases.size()];
      for (int phase : order(phases.size(), r)) {
        Figure figure = phases.get(phase).apply(r);
        context.say(
            "%s: round %d of %d: %,.1f %s",
            figure.name(), r, rounds, figure.value(), figure.unit().symbol());
        round[phase] = figure;
      }
      figures.add(List.of(round));
    }
    return figures;
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
