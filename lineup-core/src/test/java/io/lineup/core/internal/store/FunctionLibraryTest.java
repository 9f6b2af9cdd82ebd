package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lineup.redis.RedisProcess;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every script has a library form that Redis loads, with the script's memory-limit behaviour; the
 * helpers' state is declared once and set again by every call, so no call sees an earlier call's.
 */
class FunctionLibraryTest {
  @Test
  void everyScriptsLibraryLoadsIntoRedisWithTheScriptsMemoryLimitFlag() {
    try (RedisProcess redis = RedisProcess.builder().build().start()) {
      RedisClient client = RedisClient.create(redis.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        RedisCommands<String, String> commands = connection.sync();
        for (String name : ScriptLibrary.NAMES) {
          LuaScript script = ScriptLibrary.load(name);

          assertThat(commands.functionLoad(script.library(), true))
              .isEqualTo(script.functionName());

          List<Map<String, Object>> listed = commands.functionList(script.functionName());
          assertThat(listed).hasSize(1);
          @SuppressWarnings("unchecked")
          Map<String, Object> function =
              ((List<Map<String, Object>>) listed.get(0).get("functions")).get(0);
          boolean addsData =
              List.of(
                      "publish",
                      "configure",
                      "schedule_write",
                      "schedule_fire",
                      "adaptive_configure")
                  .contains(name);
          assertThat((List<?>) function.get("flags"))
              .as(name)
              .isEqualTo(addsData ? List.of() : List.of("allow-oom"));
        }
      } finally {
        client.shutdown();
      }
    }
  }

  @Test
  void theHelpersStateIsDeclaredOnceSetAgainAtEveryCallAndItsConstantsSetAtTheFirstCall() {
    String library =
        FunctionLibrary.of(
            "lib_one",
            String.join(
                "\n",
                "-- a helper",
                "local K_A, K_B = KEYS[1], KEYS[2]",
                "local seen = {}",
                "local pending",
                "local NAMES = {'a',",
                "  'b'}",
                "local str_rep = string.rep",
                "local function remember(x)",
                "  seen[#seen + 1] = x .. NAMES[#seen + 1] .. str_rep('!', 2)",
                "  return seen",
                "end",
                ""),
            "return remember(ARGV[1])\n",
            true);

    assertThat(library)
        .startsWith("#!lua name=lib_one\nlocal KEYS, ARGV, lineup_lib_ready\n")
        .contains("local K_A\nlocal K_B\nlocal seen\nlocal pending\nlocal NAMES\nlocal str_rep\n")
        .contains(
            "local function lineup_lib_once_1()\nNAMES = {'a',\n  'b'}\nstr_rep = string.rep\nend\n")
        .contains(
            "local function lineup_lib_begin_1()\nK_A, K_B = KEYS[1], KEYS[2]\nseen = {}\n"
                + "pending = nil\nend\n")
        .contains("flags = {'allow-oom'}")
        .endsWith(
            "KEYS, ARGV = keys, args\nif not lineup_lib_ready then\nlineup_lib_once_1()\n"
                + "lineup_lib_ready = true\nend\nlineup_lib_begin_1()\n"
                + "return remember(ARGV[1])\nend}\n");
    try (RedisProcess redis = RedisProcess.builder().build().start()) {
      RedisClient client = RedisClient.create(redis.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        RedisCommands<String, String> commands = connection.sync();
        commands.functionLoad(library);
        // Each call starts with an empty table of its own and the same constants: one value, the
        // same every time, never a second one left by the call before.
        for (int i = 0; i < 3; i++) {
          List<String> seen =
              commands.fcall("lib_one", ScriptOutputType.MULTI, new String[0], "x" + i);
          assertThat(seen).containsExactly("x" + i + "a!!");
        }
      } finally {
        client.shutdown();
      }
    }
  }

  @Test
  void aHelperThatDeclaresANameTwiceIsRefused() {
    assertThatThrownBy(
            () -> FunctionLibrary.of("lib_two", "local a = 1\nlocal a = 2\n", "return a\n", true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("declares a twice");
  }
}
