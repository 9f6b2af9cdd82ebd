package io.lineup.core.internal.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Function;

/**
 * One Lua script with its includes resolved, in its two forms: the text {@code EVALSHA} runs and
 * the Redis Functions library {@code FCALL} calls ({@link FunctionLibrary}).
 *
 * @param name the file name without {@code .lua}
 * @param source the full text sent to Redis by {@code EVAL}
 * @param sha1 lower-case hex SHA-1 of {@code source}
 * @param functionName the name of the library and of its one function
 * @param library the library's text, for {@code FUNCTION LOAD}
 */
public record LuaScript(
    String name, String source, String sha1, String functionName, String library) {
  /**
   * @param library the library's text, from the source's SHA-1
   */
  static LuaScript of(String name, String source, Function<String, String> library) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
      String sha1 = HexFormat.of().formatHex(digest);
      return new LuaScript(
          name, source, sha1, FunctionLibrary.functionName(name, sha1), library.apply(sha1));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is always available", e);
    }
  }
}
