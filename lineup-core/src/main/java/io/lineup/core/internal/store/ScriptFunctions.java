package io.lineup.core.internal.store;

import io.lettuce.core.RedisCommandExecutionException;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the engine calls its scripts as Redis Functions ({@code FCALL}), and loading a script's
 * library where Redis does not have it.
 *
 * <p>A call by {@code FCALL} that finds no function (a new Redis, a restart without persistence,
 * {@code FUNCTION FLUSH}, a cluster node added) goes the script way instead ({@code EVALSHA}, then
 * {@code EVAL}), which does the same, and the library is loaded in the background for the calls
 * after it. When Redis refuses functions altogether (an ACL without {@code FCALL} or {@code
 * FUNCTION LOAD}, a server before 7.0), every call goes the script way from then on, and that is
 * logged once. So a missing library never fails a call, and at most one load per script is in
 * flight.
 */
final class ScriptFunctions {
  private static final Logger LOG = LoggerFactory.getLogger(ScriptFunctions.class);

  private final Function<String, CompletionStage<Throwable>> loader;
  private final Set<String> loading = ConcurrentHashMap.newKeySet();
  private volatile boolean enabled = true;

  /**
   * @param loader loads a library's text on every server that may hold the scripts' keys ({@code
   *     FUNCTION LOAD REPLACE}); completes with null when it did, else with what failed (Lettuce's
   *     exception, unwrapped)
   */
  ScriptFunctions(Function<String, CompletionStage<Throwable>> loader) {
    this.loader = loader;
  }

  /** Whether calls go by {@code FCALL}: true until Redis refused functions. */
  boolean enabled() {
    return enabled;
  }

  /**
   * Decides what a failed {@code FCALL} means: true when the call is to be made the script way
   * instead (the function is missing, and its library is being loaded; or Redis refuses functions,
   * and they are turned off), false when the failure is the call's own (the script's error, Redis
   * unreachable) and stands.
   *
   * @param failure what failed the call: Lettuce's exception, unwrapped
   */
  boolean fallsBack(Throwable failure, LuaScript script) {
    if (!(failure instanceof RedisCommandExecutionException refused)) {
      return false;
    }
    String message = String.valueOf(refused.getMessage());
    if (message.contains("Function not found")) {
      load(script);
      return true;
    }
    if (refusesFunctions(message)) {
      disable(message);
      return true;
    }
    return false;
  }

  private void load(LuaScript script) {
    String name = script.functionName();
    if (!enabled || !loading.add(name)) {
      return;
    }
    CompletionStage<Throwable> load;
    try {
      load = loader.apply(script.library());
    } catch (RuntimeException e) {
      loading.remove(name);
      LOG.debug("Loading the library {} failed: {}", name, e.toString());
      return;
    }
    load.thenAccept(failure -> {
      loading.remove(name);
      if (failure == null) {
        return;
      }
      String message = String.valueOf(failure.getMessage());
      if (failure instanceof RedisCommandExecutionException && refusesFunctions(message)) {
        disable(message);
      } else {
        // Redis away or a node failing over: the next call that misses the function tries again.
        LOG.debug("Loading the library {} failed: {}", name, message);
      }
    });
  }

  private void disable(String reason) {
    if (enabled) {
      enabled = false;
      LOG.warn(
          "Redis refuses functions ({}); the engine calls its scripts by EVALSHA from now on",
          reason);
    }
  }

  /** A refusal of functions themselves, not of a key or of one call. */
  private static boolean refusesFunctions(String message) {
    String lower = message.toLowerCase(Locale.ROOT);
    boolean aboutFunctions = lower.contains("fcall") || lower.contains("function");
    return aboutFunctions && (lower.startsWith("noperm") || lower.contains("unknown command"));
  }
}
