package io.lineup.core.internal.store;

/**
 * The ids the publish script generates: {@code '~'} and the job's arrival number in base 62 (digits
 * 0-9, then A-Z, then a-z), the Java twin of {@code arrival_id} in {@code lib/line.lua}, so that a
 * publish of jobs that all take generated ids can be answered with the first arrival number alone.
 */
final class GeneratedIds {
  private static final char[] DIGITS =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

  private GeneratedIds() {}

  /**
   * The id generated for an arrival number.
   *
   * @param arrival the job's arrival number in its queue, at least 1
   * @throws IllegalArgumentException when {@code arrival} is below 1 (no job has such a number)
   */
  static String of(long arrival) {
    if (arrival < 1) {
      throw new IllegalArgumentException("No job arrives as number " + arrival);
    }
    char[] text = new char[12]; // '~' and at most 11 base-62 digits for a long
    int at = text.length;
    for (long rest = arrival; rest > 0; rest /= DIGITS.length) {
      text[--at] = DIGITS[(int) (rest % DIGITS.length)];
    }
    text[--at] = KeySpace.GENERATED_ID_MARK.charAt(0);
    return new String(text, at, text.length - at);
  }
}
