package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.RedisServerInfo;
import io.lineup.redis.RedisProcess;
import io.lineup.server.redis.RedisStartupCheck;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Start-up warns about Redis settings that can lose jobs, and only about those, and notes a setting
 * that costs memory.
 */
class RedisStartupCheckTest {

  @Test
  void anEvictingRedisWithoutPersistenceGetsTwoWarnings() {
    try (RedisProcess redis =
            RedisProcess.builder().setting("maxmemory-policy", "allkeys-lru").build().start();
        Lineup lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build())) {
      List<String> warnings = RedisStartupCheck.run(lineup);
      assertThat(warnings).hasSize(2);
      assertThat(warnings.get(0)).contains("allkeys-lru").contains("noeviction");
      assertThat(warnings.get(1)).contains("persists nothing").contains("appendonly yes");
    }
  }

  @Test
  void aNonEvictingRedisWithAnAppendOnlyFileGetsNoWarning() {
    try (RedisProcess redis = RedisProcess.builder().appendOnly(true).build().start();
        Lineup lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build())) {
      assertThat(RedisStartupCheck.run(lineup)).isEmpty();
    }
  }

  @Test
  void snapshotsOnlyAndAnUnreadablePolicyAreWarnedAbout() {
    assertThat(
            RedisStartupCheck.warningsFor(
                new RedisServerInfo("7.2.4", "standalone", "noeviction", false, true, 128)))
        .singleElement()
        .asString()
        .contains("snapshots only");
    assertThat(
            RedisStartupCheck.warningsFor(
                new RedisServerInfo("7.2.4", "standalone", null, true, null, null)))
        .singleElement()
        .asString()
        .contains("maxmemory-policy");
  }

  @Test
  void aListpackValueBelow128IsNotedAndNotWarnedAbout() {
    try (RedisProcess redis =
            RedisProcess.builder()
                .appendOnly(true)
                .setting("hash-max-ziplist-value", "64")
                .build()
                .start();
        Lineup lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build())) {
      RedisServerInfo info = lineup.redisInfo();
      assertThat(info.listpackValueBytes()).isEqualTo(64);
      assertThat(RedisStartupCheck.run(lineup)).isEmpty();
      assertThat(RedisStartupCheck.notesFor(info))
          .singleElement()
          .asString()
          .contains("hash-max-listpack-value is 64")
          .contains("about 50 bytes");
    }
    try (RedisProcess redis = RedisProcess.builder().build().start();
        Lineup lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build())) {
      assertThat(lineup.redisInfo().listpackValueBytes())
          .isEqualTo(RedisProcess.LISTPACK_VALUE_BYTES);
      assertThat(RedisStartupCheck.notesFor(lineup.redisInfo())).isEmpty();
    }
    assertThat(
            RedisStartupCheck.notesFor(
                new RedisServerInfo("7.2.4", "standalone", null, true, null, null)))
        .as("CONFIG refused: nothing known, nothing noted")
        .isEmpty();
  }
}
