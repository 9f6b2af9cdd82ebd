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
          boolean addsData = name.equals("publish") || name.equals("configure");
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
  void theHelpersStateIsDeclaredOnceAndSetAgainAtTheStartOfEveryCall() {
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
                "local function remember(x)",
                "  seen[#seen + 1] = x",
                "  return #seen",
                "end",
                ""),
            "return remember(ARGV[1])\n",
            true);

    assertThat(library)
        .startsWith("#!lua name=lib_one\nlocal KEYS, ARGV\n")
        .contains("local K_A\nlocal K_B\nlocal seen\nlocal pending\nlocal NAMES\n")
        .contains("K_A, K_B = KEYS[1], KEYS[2]\nseen = {}\npending = nil\nNAMES = {'a',\n  'b'}\n")
        .contains("flags = {'allow-oom'}")
        .endsWith("KEYS, ARGV = keys, args\nbegin_call_1()\nreturn remember(ARGV[1])\nend}\n");
    try (RedisProcess redis = RedisProcess.builder().build().start()) {
      RedisClient client = RedisClient.create(redis.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        RedisCommands<String, String> commands = connection.sync();
        commands.functionLoad(library);
        // Each call starts with an empty table: the count is 1 every time, never 2 or 3.
        for (int i = 0; i < 3; i++) {
          Long count = commands.fcall("lib_one", ScriptOutputType.INTEGER, new String[0], "x");
          assertThat(count).isEqualTo(1L);
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
