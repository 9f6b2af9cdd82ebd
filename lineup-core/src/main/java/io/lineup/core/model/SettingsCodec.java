package io.lineup.core.model;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Maps {@link QueueSettings} to the meta-hash fields of {@code lib/settings.lua} and back, as the
 * {@link QueueSetting} definitions say: their stored names, stored forms and bounds. The engine's
 * runtime and store use it; it lives with the settings because the stored form is theirs.
 */
public final class SettingsCodec {
  private SettingsCodec() {}

  /**
   * Name/value pairs for the fields a change sets, each checked against its definition's bounds
   * first.
   *
   * @throws InvalidArgumentException naming the first setting out of range (no pairs are returned)
   */
  public static List<String> encode(QueueSettings change) {
    List<String> pairs = new ArrayList<>();
    for (QueueSetting setting : QueueSetting.values()) {
      Object value = setting.javaValueIn(change);
      if (value != null) {
        setting.check(value);
        pairs.add(setting.storedName());
        pairs.add(setting.stored(value));
      }
    }
    return pairs;
  }

  /**
   * The effective settings from the names and values the stats script returns; a name it did not
   * return reads as its default, as it does in the scripts.
   */
  public static QueueSettings decode(Map<String, String> stored) {
    Map<QueueSetting, Object> java = new EnumMap<>(QueueSetting.class);
    for (QueueSetting setting : QueueSetting.values()) {
      String text = stored.get(setting.storedName());
      java.put(setting, text == null ? setting.defaultJavaValue() : setting.parseStored(text));
    }
    return QueueSetting.build(java);
  }

  /** The name of a setting's meta-hash field, as the Lua scripts read it. */
  public static String storedName(QueueSetting setting) {
    return setting.storedName();
  }

  /**
   * A setting's Java value for the text the scripts return for it (a Lua number or string).
   *
   * @throws NumberFormatException when the text is not of the setting's type
   */
  public static Object parseStored(QueueSetting setting, String text) {
    return setting.parseStored(text);
  }
}
