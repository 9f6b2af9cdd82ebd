package io.lineup.core.internal.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One Lua script with its includes resolved, and the SHA-1 digest Redis knows it by.
 *
 * @param name the file name without {@code .lua}
 * @param source the full text sent to Redis
 * @param sha1 lower-case hex SHA-1 of {@code source}
 */
public record LuaScript(String name, String source, String sha1) {
  static LuaScript of(String name, String source) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
      return new LuaScript(name, source, HexFormat.of().formatHex(digest));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is always available", e);
    }
  }
}
