package io.lineup.core.internal.store;

import io.lettuce.core.RedisCommandExecutionException;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
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

  private final Function<String, CompletionStage<?>> loader;
  private final Set<String> loading = ConcurrentHashMap.newKeySet();
  private volatile boolean enabled = true;

  /**
   * @param loader loads a library's text on every server that may hold the scripts' keys ({@code
   *     FUNCTION LOAD REPLACE})
   */
  ScriptFunctions(Function<String, CompletionStage<?>> loader) {
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
   */
  boolean fallsBack(Throwable failure, LuaScript script) {
    if (!(unwrap(failure) instanceof RedisCommandExecutionException refused)) {
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
    CompletionStage<?> load;
    try {
      load = loader.apply(script.library());
    } catch (RuntimeException e) {
      loading.remove(name);
      LOG.debug("Loading the library {} failed: {}", name, e.toString());
      return;
    }
    load.whenComplete((done, error) -> {
      loading.remove(name);
      if (error == null) {
        return;
      }
      Throwable cause = unwrap(error);
      String message = String.valueOf(cause.getMessage());
      if (cause instanceof RedisCommandExecutionException && refusesFunctions(message)) {
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
  static boolean refusesFunctions(String message) {
    String lower = message.toLowerCase(Locale.ROOT);
    boolean aboutFunctions = lower.contains("fcall") || lower.contains("function");
    return aboutFunctions && (lower.startsWith("noperm") || lower.contains("unknown command"));
  }

  private static Throwable unwrap(Throwable error) {
    Throwable current = error;
    while ((current instanceof ExecutionException || current instanceof CompletionException)
        && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }
}
