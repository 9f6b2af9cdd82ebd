package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSetting;
import io.lineup.core.model.QueueSettingDefinitionsTest;
import io.lineup.core.model.QueueSettings;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every setting written at either end of its range is read back as written, through the Lua
 * scripts: the stored names and forms the codec uses are the ones {@code lib/settings.lua} reads.
 */
abstract class QueueSettingsInRedisTest extends EngineSuite {

  @Test
  void everySettingAtItsHighestIsReadBackAsWritten() {
    assertRoundTrip(Fixtures.aFreshQueue(), QueueSettingDefinitionsTest::highest);
  }

  @Test
  void everySettingAtItsLowestIsReadBackAsWritten() {
    assertRoundTrip(Fixtures.aFreshQueue(), QueueSettingDefinitionsTest::lowest);
  }

  private void assertRoundTrip(QueueName queue, Function<QueueSetting, Object> bound) {
    Map<QueueSetting, Object> values = new EnumMap<>(QueueSetting.class);
    for (QueueSetting setting : QueueSetting.values()) {
      values.put(setting, bound.apply(setting));
    }
    QueueSettings change = QueueSettings.change(values, null);

    try (Lineup lineup = anEngine()) {
      assertThat(lineup.stats(queue).settings()).isEqualTo(QueueSetting.defaults());
      lineup.configure(queue, change);
      QueueSettings read = lineup.stats(queue).settings();

      assertThat(read).isEqualTo(change).isNotEqualTo(QueueSetting.defaults());
      for (QueueSetting setting : QueueSetting.values()) {
        assertThat(setting.valueIn(read)).as(setting.name()).isEqualTo(values.get(setting));
      }
    }
  }
}
