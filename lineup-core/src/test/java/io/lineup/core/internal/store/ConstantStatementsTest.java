package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A helper's statement runs once per library only when its values cannot differ between calls:
 * library functions and strings never assigned again, and tables of literals only ever read.
 */
class ConstantStatementsTest {
  @Test
  void libraryFunctionsAndStringsNeverAssignedAgainAreConstants() {
    String script =
        "local a, b = string.byte, cmsgpack.pack\nlocal z = string.rep('\\0', (4) - 1)\n";

    assertThat(holds(List.of("a", "b"), "a, b = string.byte, cmsgpack.pack", script)).isTrue();
    assertThat(holds(List.of("z"), "z = string.rep('\\0', (4) - 1)", script)).isTrue();
  }

  @Test
  void aValueAssignedAgainOrReadFromTheCallIsNotAConstant() {
    String again = "local n = 0\nlocal function f()\n  n = n + 1\nend\n";
    String pair = "local n, m = 0, 1\nlocal function f()\n  m, n = 2, 3\nend\n";

    assertThat(holds(List.of("n"), "n = 0", again)).isFalse();
    assertThat(holds(List.of("n", "m"), "n, m = 0, 1", pair)).isFalse();
    assertThat(holds(List.of("k"), "k = KEYS[1]", "local k = KEYS[1]\n")).isFalse();
    assertThat(holds(List.of("t"), "t = redis.call('TIME')", "local t = redis.call('TIME')\n"))
        .isFalse();
    assertThat(holds(List.of("u"), "u = nil", "local u = nil\n")).isFalse();
  }

  @Test
  void aTableOfLiteralsOnlyReadByIndexLengthUnpackOrIpairsIsAConstant() {
    String script =
        String.join(
            "\n",
            "local NAMES = {'a', 'b'} -- the names",
            "local DEFAULTS = {a = 1, b = 'x'}",
            "local function f(k)",
            "  local v = redis.call('HMGET', 'h', unpack(NAMES))",
            "  for i, name in ipairs(NAMES) do v[i] = v[i] or DEFAULTS[name] end",
            "  if DEFAULTS[k] == 1 then return #NAMES end",
            "end",
            "");

    assertThat(holds(List.of("NAMES"), "NAMES = {'a', 'b'} -- the names", script)).isTrue();
    assertThat(holds(List.of("DEFAULTS"), "DEFAULTS = {a = 1, b = 'x'}", script)).isTrue();
  }

  @Test
  void aTableThatIsWrittenHandedOnOrHoldsMoreThanLiteralsIsNotAConstant() {
    String written = "local T = {}\nlocal function f(k)\n  T[k] = 1\nend\n";
    String inserted = "local T = {}\nlocal function f(k)\n  table.insert(T, k)\nend\n";
    String aliased = "local T = {}\nlocal function f(k)\n  local u = T\n  u[k] = 1\nend\n";
    String replaced = "local T = {}\nlocal function f()\n  T = {}\nend\n";

    assertThat(holds(List.of("T"), "T = {}", written)).isFalse();
    assertThat(holds(List.of("T"), "T = {}", inserted)).isFalse();
    assertThat(holds(List.of("T"), "T = {}", aliased)).isFalse();
    assertThat(holds(List.of("T"), "T = {}", replaced)).isFalse();
    assertThat(holds(List.of("T"), "T = {{1}}", "local T = {{1}}\n")).isFalse();
    assertThat(holds(List.of("T"), "T = {KEYS[1]}", "local T = {KEYS[1]}\n")).isFalse();
    assertThat(holds(List.of("T"), "T = {f()}", "local T = {f()}\n")).isFalse();
  }

  @Test
  void aWordInAStringOrACommentDoesNotCountAsAUse() {
    String script =
        "local T = {'x'}\nlocal function f()\n  return 'T = 2', T[1] -- T[1] = 3\nend\n";

    assertThat(holds(List.of("T"), "T = {'x'}", script)).isTrue();
  }

  private static boolean holds(List<String> names, String assignment, String script) {
    return new ConstantStatements(script).holdsConstants(names, assignment);
  }
}
