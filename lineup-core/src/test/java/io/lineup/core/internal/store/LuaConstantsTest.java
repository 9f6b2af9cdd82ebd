package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A script's whole-number constants are written into the code that uses them, and nothing else in
 * the script changes: not strings, comments, table fields, names declared twice or assigned again,
 * nor its line numbers.
 */
class LuaConstantsTest {
  private static final Pattern CONSTANT_DECLARATION =
      Pattern.compile("(?m)^local [A-Z][A-Z0-9_]*(\\s*,\\s*[A-Z][A-Z0-9_]*)*\\s*=\\s*-?[0-9]");

  @Test
  void aConstantIsWrittenInParenthesesWhereItIsUsedAndItsDeclarationLineIsLeftEmpty() {
    String script =
        String.join(
            "\n",
            "local F_STATE, F_TOKEN = 5, 12 -- positions",
            "local C_NOT_FOUND = -1",
            "local function code(job)",
            "  if job[F_STATE] == 2 then return C_NOT_FOUND end",
            "  return 'n_'..F_TOKEN..x -C_NOT_FOUND",
            "end");

    String inlined = LuaConstants.inline(script);

    assertThat(inlined)
        .isEqualTo(
            String.join(
                "\n",
                "",
                "",
                "local function code(job)",
                "  if job[(5)] == 2 then return (-1) end",
                "  return 'n_'..(12)..x -(-1)",
                "end"));
  }

  @Test
  void namesInStringsCommentsAndTableFieldsAreLeftAlone() {
    String script =
        String.join(
            "\n",
            "local F_STATE = 5",
            "-- F_STATE in a comment",
            "--[[ F_STATE in a long comment ]]",
            "local a = 'F_STATE' .. \"F_STATE\" .. [[F_STATE]] .. [==[F_STATE]==]",
            "local b = t.F_STATE + t:F_STATE() + F_STATE");

    String inlined = LuaConstants.inline(script);

    assertThat(inlined.lines().toList())
        .containsExactly(
            "",
            "-- F_STATE in a comment",
            "--[[ F_STATE in a long comment ]]",
            "local a = 'F_STATE' .. \"F_STATE\" .. [[F_STATE]] .. [==[F_STATE]==]",
            "local b = t.F_STATE + t:F_STATE() + (5)");
  }

  @Test
  void aNameDeclaredTwiceOrAssignedAgainKeepsItsLocalAndSoDoTheNamesDeclaredBesideIt() {
    String script =
        String.join(
            "\n",
            "local LIMIT = 100",
            "local LIMIT = 200",
            "local STEP, MAX = 8, 1000",
            "local function f()",
            "  MAX = 5",
            "  return LIMIT + STEP + MAX",
            "end",
            "local SPAN = 7",
            "return f() + SPAN");

    String inlined = LuaConstants.inline(script);

    assertThat(inlined.lines().toList())
        .containsExactly(
            "local LIMIT = 100",
            "local LIMIT = 200",
            "local STEP, MAX = 8, 1000",
            "local function f()",
            "  MAX = 5",
            "  return LIMIT + STEP + MAX",
            "end",
            "",
            "return f() + (7)");
  }

  @Test
  void aScriptWithoutConstantsIsReturnedAsItIs() {
    String script = "local count = tonumber(ARGV[1])\nreturn count";

    assertThat(LuaConstants.inline(script)).isSameAs(script);
  }

  @Test
  void everyScriptOfTheLibraryHasAllItsConstantsWrittenIn() {
    for (String name : ScriptLibrary.NAMES) {
      String loaded = ScriptLibrary.load(name).source();
      assertThat(CONSTANT_DECLARATION.matcher(loaded).find()).as(name).isFalse();
      assertThat(loaded).as(name).doesNotContain("F_STATE").doesNotContain("C_OK");
    }
  }

  @Test
  void theNamesAssignedOutsideALocalDeclarationAreFoundInOnePass() {
    String source =
        String.join(
            "\n",
            "local A, B = 1, 2",
            "local function f(t)",
            "  C = 3",
            "  D, E = 4, 5",
            "  t.F = 6",
            "  obj:G = 7",
            "  if H == 8 then return end",
            "  I = J - 1",
            "  K = 1 - 2; L = 3",
            "  MN = 9 -- M and N are not assigned",
            "end",
            "");

    assertThat(LuaConstants.reassignedNames(source))
        .containsExactlyInAnyOrder("C", "D", "E", "I", "K", "MN");
  }
}
