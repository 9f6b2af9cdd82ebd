package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.cluster.SlotHash;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.internal.store.ScriptLibrary;
import io.lineup.core.model.QueueName;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Reads every Lua script the engine ships and checks the cluster-safety rules: every key a script
 * touches comes from KEYS (through the {@code K_*} locals of {@code lib/keys.lua}, or {@code
 * KEYS[...]} for unique-key locks), no script spells a key itself, and every key of a queue hashes
 * to the queue's Redis Cluster slot.
 */
class ScriptKeysDeclaredTest {
  private static final String KEYS_FILE = "lib/keys.lua";

  // ---- the scripts as shipped ----

  @Test
  void everyRedisCallPassesItsKeysFromKeysNeverALiteralOrAConcatenation() {
    Map<String, String> scripts = allScripts();
    assertThat(scripts).containsKey(KEYS_FILE);
    List<String> problems = new ArrayList<>();
    int calls = 0;
    for (var script : scripts.entrySet()) {
      problems.addAll(ScriptRules.keyArgumentProblems(script.getKey(), script.getValue()));
      calls += ScriptRules.redisCalls(script.getValue()).size();
    }
    assertThat(problems).isEmpty();
    // The scripts make well over a hundred Redis calls; a parser that found few would check little.
    assertThat(calls).isGreaterThan(50);
  }

  @Test
  void onlyRecordKeyAndFairKeyNameDeriveKeysFromTheJobsAndMetaKeys() {
    List<String> derivations = new ArrayList<>();
    allScripts()
        .forEach((file, text) -> derivations.addAll(ScriptRules.keyDerivations(file, text)));
    assertThat(derivations)
        .hasSize(2)
        .anySatisfy(d -> assertThat(d).startsWith("lib/job.lua:").endsWith("K_JOBS .."))
        .anySatisfy(d -> assertThat(d).startsWith("lib/fair.lua:").endsWith("K_META .."));
    // Scripts that read records get the helper with them.
    assertThat(ScriptLibrary.load("get").source()).contains("local function record_key(id)");
  }

  @Test
  void noScriptSpellsTheKeyPrefix() {
    List<String> problems = new ArrayList<>();
    allScripts().forEach((file, text) -> problems.addAll(ScriptRules.prefixProblems(file, text)));
    assertThat(problems).isEmpty();
  }

  @Test
  void keysLuaBindsEveryQueueKeyToItsKeysSlotInKeySpaceOrder() {
    Map<String, Integer> bindings = ScriptRules.keyBindings(ScriptLibrary.raw(KEYS_FILE));
    assertThat(ScriptRules.bindingProblems(ScriptLibrary.raw(KEYS_FILE))).isEmpty();
    assertThat(bindings).hasSize(KeySpace.queueKeyCount());
    assertThat(new TreeSet<>(bindings.values()))
        .containsExactlyElementsOf(
            Stream.iterate(1, n -> n + 1).limit(KeySpace.queueKeyCount()).toList());
    // K_WAKE at KEYS[9] must be the key KeySpace puts ninth, whose name ends in ":wake".
    byte[][] keys = KeySpace.queueKeys(QueueName.of("shop", "orders"));
    bindings.forEach((local, index) ->
        assertThat(new String(keys[index - 1], StandardCharsets.UTF_8))
            .as("%s = KEYS[%d]", local, index)
            .endsWith(":" + local.substring("K_".length()).toLowerCase(Locale.ROOT)));
  }

  @Test
  void everyKeyLocalAScriptUsesIsBoundInKeysLuaAndIncludedWhereUsed() {
    Set<String> bound = ScriptRules.keyBindings(ScriptLibrary.raw(KEYS_FILE)).keySet();
    List<String> problems = new ArrayList<>();
    allScripts()
        .forEach((file, text) -> {
          for (String local : ScriptRules.keyLocalsUsed(text)) {
            if (!bound.contains(local)) {
              problems.add(file + ": uses " + local + ", which lib/keys.lua does not bind");
            }
          }
          if (!file.equals(KEYS_FILE) && ScriptRules.keyBindings(text).size() > 0) {
            problems.add(file + ": binds K_* locals itself; only lib/keys.lua may");
          }
        });
    String keysText = ScriptLibrary.raw(KEYS_FILE).strip();
    for (String name : ScriptLibrary.NAMES) {
      String resolved = ScriptLibrary.load(name).source();
      if (!ScriptRules.keyLocalsUsed(resolved).isEmpty() && !resolved.contains(keysText)) {
        problems.add(name + ".lua: uses K_* keys without including lib/keys.lua");
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void everyTopLevelScriptIsKnownAndHasAHeaderListingKeysArgvAndReturns() {
    Map<String, String> topLevel = scriptsIn("");
    assertThat(topLevel.keySet())
        .containsExactlyInAnyOrderElementsOf(
            ScriptLibrary.NAMES.stream().map(name -> name + ".lua").toList());
    List<String> problems = new ArrayList<>();
    topLevel.forEach((file, text) -> problems.addAll(ScriptRules.headerProblems(file, text)));
    assertThat(problems).isEmpty();
  }

  // ---- the keys at run time ----

  @Test
  void everyKeyOfAQueueCarriesItsHashTagAndHashesToOneClusterSlot() {
    List<QueueName> queues =
        List.of(
            QueueName.of("shop", "orders"),
            QueueName.of("a", "b"),
            QueueName.of("tenant_42.prod-eu", "image.generation_v2-high"),
            QueueName.of("n".repeat(QueueName.MAX_LENGTH), "q".repeat(QueueName.MAX_LENGTH)));
    // Unique keys are the caller's text; braces in them must not move the key to another slot.
    List<String> uniqueKeys =
        List.of("order-42", "{other}", "}{", "a}b{c}", "ключ заказа", "x".repeat(256));
    // Records hashes: the jobs hash (caller-given ids) and buckets of generated ids.
    List<String> recordIds = List.of("order-42", "~1", "~zz", "~100", "~zzzzzz");
    Set<Integer> slotsSeen = new TreeSet<>();
    for (QueueName queue : queues) {
      String tag = KeySpace.hashTag(queue);
      assertThat(tag).isEqualTo("{" + queue.namespace() + "/" + queue.name() + "}");
      List<byte[]> keys = new ArrayList<>(List.of(KeySpace.queueKeys(queue)));
      uniqueKeys.forEach(unique -> keys.add(KeySpace.uniqueKey(queue, unique)));
      recordIds.forEach(id -> keys.add(KeySpace.recordKey(queue, id)));
      // Schedules: the due set, spec and state hashes, and a history list per schedule name.
      List<byte[]> scheduleKeys =
          List.of(
              KeySpace.scheduleDue(queue),
              KeySpace.scheduleSpecs(queue),
              KeySpace.scheduleStates(queue),
              KeySpace.scheduleHistory(queue, "nightly-report"),
              KeySpace.scheduleHistory(queue, "a:b.c_d-" + "n".repeat(120)));
      keys.addAll(scheduleKeys);
      assertThat(keys)
          .hasSize(
              KeySpace.queueKeyCount()
                  + uniqueKeys.size()
                  + recordIds.size()
                  + scheduleKeys.size());

      // Lettuce's SlotHash is the reference for where Redis Cluster puts a key.
      String tagged = tag.substring(1, tag.length() - 1);
      int slot = SlotHash.getSlot(tagged.getBytes(StandardCharsets.UTF_8));
      slotsSeen.add(slot);
      for (byte[] key : keys) {
        String text = new String(key, StandardCharsets.UTF_8);
        assertThat(text).as("key").contains(tag);
        // Redis hashes the text between the key's first '{' and the first '}' after it. Names
        // cannot hold braces, so the tag is that part as long as nothing before it has a brace.
        assertThat(text.indexOf('{')).as("first brace of %s", text).isEqualTo(text.indexOf(tag));
        assertThat(SlotHash.getSlot(key)).as("slot of %s", text).isEqualTo(slot);
      }
    }
    // Different queues spread over the cluster rather than sharing one slot.
    assertThat(slotsSeen).hasSizeGreaterThan(1);
  }

  // ---- the checker catches what it must ----

  @Test
  void theCheckerReportsLiteralConcatenatedAndIndirectKeys() {
    String bad =
        String.join(
            "\n",
            "-- bad: made up to prove the checker.",
            "--#include lib/keys.lua",
            "local id = ARGV[1]",
            "redis.call('GET', 'lu:x')",
            "redis.call('HGET', K_JOBS .. ':x', id)",
            "redis.call('HGET', bucket_key(id), id)",
            "local key = K_READY",
            "redis.call(\"ZADD\", key, 1, id)",
            "redis.pcall('DEL', K_JOBS, 'other')",
            "redis.call('SORT', K_JOBS)",
            "redis.call(cmd, K_JOBS)",
            "redis.call('ZREM', K_READY, id)",
            "-- redis.call('GET', 'commented-out calls do not count')",
            "redis.call('XADD', K_EVENTS, '*', 'ids', table.concat(ids, ','), 'at', now)",
            "redis.call('HSET', KEYS[unique_index], id, 1)",
            "redis.call('EXPIRE', K_NOT_BOUND, 10)");

    List<String> problems = ScriptRules.keyArgumentProblems("bad.lua", bad);

    assertThat(problems)
        .hasSize(7)
        .anySatisfy(p -> assertThat(p).startsWith("bad.lua:4:").contains("'lu:x'"))
        .anySatisfy(p -> assertThat(p).startsWith("bad.lua:5:").contains("K_JOBS .. ':x'"))
        .anySatisfy(p -> assertThat(p).startsWith("bad.lua:6:").contains("bucket_key(id)"))
        .anySatisfy(p -> assertThat(p).startsWith("bad.lua:8:").contains("key"))
        .anySatisfy(p -> assertThat(p).startsWith("bad.lua:9:").contains("'other'"))
        .anySatisfy(p -> assertThat(p).startsWith("bad.lua:10:").contains("SORT"))
        .anySatisfy(p -> assertThat(p).startsWith("bad.lua:11:").contains("cmd"));
    assertThat(ScriptRules.keyDerivations("bad.lua", bad))
        .singleElement()
        .asString()
        .startsWith("bad.lua:5:");
    assertThat(ScriptRules.prefixProblems("bad.lua", bad))
        .singleElement()
        .asString()
        .startsWith("bad.lua:4:");
    assertThat(ScriptRules.keyLocalsUsed(bad)).contains("K_NOT_BOUND");
    assertThat(ScriptRules.headerProblems("bad.lua", bad))
        .hasSize(3)
        .anySatisfy(p -> assertThat(p).contains("KEYS"))
        .anySatisfy(p -> assertThat(p).contains("ARGV"))
        .anySatisfy(p -> assertThat(p).contains("Returns"));
  }

  @Test
  void theCheckerPassesAGoodScriptAndCatchesABadBinding() {
    String good =
        String.join(
            "\n",
            "-- good: made up to prove the checker passes what it should.",
            "--",
            "-- KEYS[1..11]  queue keys (lib/keys.lua)",
            "-- ARGV[1]      job id",
            "-- Returns      { 1 }",
            "--#include lib/keys.lua",
            "local s = 'a string with redis.call(\\'GET\\', \\'lu:y\\') inside is not a call'",
            "redis.call('HSET', K_JOBS, ARGV[1], cmsgpack.pack({1, 2}))",
            "redis.call('HGET', record_key(ids[run[1]]), ARGV[1])",
            "redis.call('OBJECT', 'ENCODING', legacy_key(ARGV[1]))",
            "redis.call('ZADD', K_READY, 'NX', (255 - p) * 2 + seq, ARGV[1])",
            "local t = redis.call('TIME')",
            "return {1}");
    assertThat(ScriptRules.redisCalls(good)).hasSize(5);
    assertThat(ScriptRules.keyArgumentProblems("good.lua", good)).isEmpty();
    assertThat(ScriptRules.headerProblems("good.lua", good)).isEmpty();

    String badKeys =
        String.join(
            "\n",
            "local K_JOBS, K_READY = KEYS[1], 'lu:{x}:ready'",
            "local K_META = KEYS[1]",
            "local K_WAKE = KEYS[2] .. ':x'");
    assertThat(ScriptRules.bindingProblems(badKeys))
        .anySatisfy(p -> assertThat(p).contains("K_READY"))
        .anySatisfy(p -> assertThat(p).contains("K_META").contains("KEYS[1]"))
        .anySatisfy(p -> assertThat(p).contains("K_WAKE"));
  }

  // ---- reading the scripts ----

  private static Map<String, String> allScripts() {
    Map<String, String> scripts = new TreeMap<>(scriptsIn(""));
    scriptsIn("lib/").forEach(scripts::put);
    return scripts;
  }

  /** Every {@code .lua} file directly in {@code folder} (under the script root), by path. */
  private static Map<String, String> scriptsIn(String folder) {
    URL url = ScriptLibrary.class.getClassLoader().getResource(ScriptLibrary.ROOT + folder);
    assertThat(url).as("script folder %s on the classpath", folder).isNotNull();
    try {
      URI uri = url.toURI();
      if ("jar".equals(uri.getScheme())) {
        try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
          return read(jar.getPath(ScriptLibrary.ROOT + folder), folder);
        }
      }
      return read(Path.of(uri), folder);
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException("Cannot list the scripts in " + folder, e);
    }
  }

  private static Map<String, String> read(Path dir, String folder) throws IOException {
    Map<String, String> scripts = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".lua")).toList()) {
        String path = folder + file.getFileName();
        // Read through ScriptLibrary, which is how the engine reads them.
        scripts.put(path, ScriptLibrary.raw(path));
      }
    }
    return scripts;
  }

  /**
   * The rules a script must keep, as a checker that reports every breach with file and line. Lua is
   * read just enough for this: comments dropped, strings and brackets respected.
   */
  static final class ScriptRules {
    /** Redis commands the scripts may use, by which arguments (after the name) are keys. */
    private static final Set<String> FIRST_ARGUMENT_IS_THE_KEY =
        words(
            "GET SET SETNX GETDEL APPEND STRLEN INCR INCRBY DECR DECRBY EXPIRE PEXPIRE PEXPIREAT TTL"
                + " PTTL PERSIST"
                + " TYPE HGET HSET HSETNX HDEL HINCRBY HINCRBYFLOAT HMGET HMSET HGETALL HEXISTS HLEN"
                + " HKEYS HVALS LLEN LPUSH RPUSH LPOP RPOP LRANGE LTRIM LREM SADD SREM SMEMBERS SCARD"
                + " SISMEMBER ZADD ZREM ZCARD ZCOUNT ZRANGE ZREVRANGE ZRANGEBYSCORE ZREVRANGEBYSCORE"
                + " ZREMRANGEBYSCORE ZREMRANGEBYRANK ZRANK ZREVRANK ZSCORE ZMSCORE ZINCRBY ZPOPMIN"
                + " ZPOPMAX XADD XLEN XTRIM XRANGE XREVRANGE XDEL XACK");

    private static final Set<String> EVERY_ARGUMENT_IS_A_KEY =
        words("DEL UNLINK EXISTS MGET TOUCH");

    private static final Set<String> FIRST_TWO_ARGUMENTS_ARE_KEYS =
        words("RENAME RENAMENX RPOPLPUSH LMOVE SMOVE ZRANGESTORE COPY");

    private static final Set<String> SECOND_ARGUMENT_IS_THE_KEY = words("OBJECT");

    private static final Set<String> NO_KEYS = words("TIME PING");

    private static final Pattern KEY_ARGUMENT =
        Pattern.compile(
            "K_[A-Z0-9_]+|KEYS\\[[A-Za-z0-9_ +\\-*]+]|record_key\\(.+\\)|legacy_key\\(.+\\)"
                + "|fair_key_name\\(.+\\)|fair_sidecar\\(.+\\)");

    /** A key local used to build another key. */
    private static final Pattern KEY_DERIVATION = Pattern.compile("\\bK_[A-Z0-9_]+\\s*\\.\\.");

    private static final Pattern KEY_LOCAL = Pattern.compile("\\bK_[A-Z0-9_]+\\b");
    private static final Pattern COMMAND_NAME = Pattern.compile("'([A-Za-z]+)'|\"([A-Za-z]+)\"");
    private static final Pattern CALL = Pattern.compile("\\bredis\\.p?call\\s*\\(");
    private static final Pattern BINDING =
        Pattern.compile("(?m)^\\s*local\\s+(K_[A-Z0-9_]+(?:\\s*,\\s*K_[A-Z0-9_]+)*)\\s*=(.*)$");

    /** One {@code redis.call}/{@code redis.pcall} with its arguments as written. */
    record Call(int line, List<String> arguments) {}

    /** Every Redis call in the code (comments excluded). */
    static List<Call> redisCalls(String text) {
      String code = withoutComments(text);
      List<Call> calls = new ArrayList<>();
      Matcher m = CALL.matcher(code);
      while (m.find()) {
        if (insideString(code, m.start())) {
          continue;
        }
        calls.add(new Call(lineOf(code, m.start()), arguments(code, m.end())));
      }
      return calls;
    }

    /**
     * Places that build a key from a K_* local, as {@code file:line: text}. Only {@code bucket_key}
     * in {@code lib/job.lua} may, from {@code K_JOBS}, and {@code fair_key_name} in {@code
     * lib/fair.lua}, from {@code K_META}: what they append keeps the hash tag in front.
     */
    static List<String> keyDerivations(String file, String text) {
      List<String> found = new ArrayList<>();
      String code = stripStrings(withoutComments(text));
      Matcher m = KEY_DERIVATION.matcher(code);
      while (m.find()) {
        found.add(file + ":" + lineOf(code, m.start()) + ": " + m.group());
      }
      return found;
    }

    /**
     * Calls whose keys are not K_* locals, KEYS[...], {@code record_key(...)} or {@code
     * legacy_key(...)}, or whose command is unknown.
     */
    static List<String> keyArgumentProblems(String file, String text) {
      List<String> problems = new ArrayList<>();
      for (Call call : redisCalls(text)) {
        String where = file + ":" + call.line() + ": ";
        if (call.arguments().isEmpty()) {
          problems.add(where + "redis call without arguments");
          continue;
        }
        Matcher name = COMMAND_NAME.matcher(call.arguments().get(0));
        if (!name.matches()) {
          problems.add(
              where
                  + "command "
                  + call.arguments().get(0)
                  + " is not a literal name, so its keys"
                  + " cannot be checked");
          continue;
        }
        String command =
            (name.group(1) != null ? name.group(1) : name.group(2)).toUpperCase(Locale.ROOT);
        List<String> args = call.arguments().subList(1, call.arguments().size());
        List<String> keys;
        if (NO_KEYS.contains(command)) {
          keys = List.of();
        } else if (FIRST_ARGUMENT_IS_THE_KEY.contains(command)) {
          keys = args.subList(0, Math.min(1, args.size()));
        } else if (SECOND_ARGUMENT_IS_THE_KEY.contains(command)) {
          keys = args.size() < 2 ? List.of() : args.subList(1, 2);
        } else if (FIRST_TWO_ARGUMENTS_ARE_KEYS.contains(command)) {
          keys = args.subList(0, Math.min(2, args.size()));
        } else if (EVERY_ARGUMENT_IS_A_KEY.contains(command)) {
          keys = args;
        } else {
          problems.add(
              where
                  + "command "
                  + command
                  + " is not known to the checker: teach it which"
                  + " arguments are keys");
          continue;
        }
        if (keys.isEmpty() && !NO_KEYS.contains(command)) {
          problems.add(where + command + " is called without its key");
        }
        for (String key : keys) {
          if (!KEY_ARGUMENT.matcher(key).matches()) {
            problems.add(
                where
                    + command
                    + " gets key "
                    + key
                    + "; keys must be a K_* local, KEYS[...], record_key(...) or"
                    + " legacy_key(...)");
          }
        }
      }
      return problems;
    }

    /** Lines that spell the key prefix (in code, strings or comments). */
    static List<String> prefixProblems(String file, String text) {
      List<String> problems = new ArrayList<>();
      String[] lines = text.split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        if (lines[i].contains(KeySpace.PREFIX)) {
          problems.add(file + ":" + (i + 1) + ": spells the key prefix '" + KeySpace.PREFIX + "'");
        }
      }
      return problems;
    }

    /** K_* locals the code uses. */
    static Set<String> keyLocalsUsed(String text) {
      Set<String> used = new TreeSet<>();
      Matcher m = KEY_LOCAL.matcher(stripStrings(withoutComments(text)));
      while (m.find()) {
        used.add(m.group());
      }
      return used;
    }

    /** {@code local K_X = KEYS[n]} bindings: local name to n. */
    static Map<String, Integer> keyBindings(String text) {
      Map<String, Integer> bindings = new LinkedHashMap<>();
      Matcher m = BINDING.matcher(withoutComments(text));
      while (m.find()) {
        String[] names = m.group(1).split("\\s*,\\s*");
        List<String> values = splitTopLevel(m.group(2));
        for (int i = 0; i < names.length; i++) {
          String value = i < values.size() ? values.get(i) : "";
          Matcher index = Pattern.compile("KEYS\\[(\\d+)]").matcher(value);
          bindings.put(names[i].trim(), index.matches() ? Integer.parseInt(index.group(1)) : -1);
        }
      }
      return bindings;
    }

    /** Bindings that are not exactly {@code KEYS[n]}, or that reuse an n. */
    static List<String> bindingProblems(String keysText) {
      List<String> problems = new ArrayList<>();
      Map<Integer, String> taken = new TreeMap<>();
      keyBindings(keysText)
          .forEach((local, index) -> {
            if (index < 1) {
              problems.add(local + " is not bound to KEYS[n]");
            } else if (taken.containsKey(index)) {
              problems.add(
                  local + " and " + taken.get(index) + " are both bound to KEYS[" + index + "]");
            } else {
              taken.put(index, local);
            }
          });
      return problems;
    }

    /** What a top-level script's opening comment lacks of KEYS, ARGV and Returns. */
    static List<String> headerProblems(String file, String text) {
      List<String> header = new ArrayList<>();
      for (String line : text.split("\n", -1)) {
        if (!line.startsWith("--") || line.startsWith("--#include")) {
          break;
        }
        header.add(line);
      }
      List<String> problems = new ArrayList<>();
      for (String part : List.of("KEYS", "ARGV", "Returns")) {
        Pattern entry = Pattern.compile("^--\\s+" + part + "\\b.*\\S.*");
        if (header.stream().noneMatch(line -> entry.matcher(line).matches())) {
          problems.add(file + ": the header comment does not list " + part);
        }
      }
      return problems;
    }

    // ---- a little Lua reading ----

    /** The text with every comment blanked out (line breaks kept, so line numbers hold). */
    static String withoutComments(String text) {
      StringBuilder out = new StringBuilder(text.length());
      int i = 0;
      while (i < text.length()) {
        char c = text.charAt(i);
        if (c == '\'' || c == '"') {
          int end = stringEnd(text, i);
          out.append(text, i, end);
          i = end;
        } else if (text.startsWith("--", i)) {
          int end;
          if (text.startsWith("--[[", i)) {
            int close = text.indexOf("]]", i + 4);
            end = close < 0 ? text.length() : close + 2;
          } else {
            int newline = text.indexOf('\n', i);
            end = newline < 0 ? text.length() : newline;
          }
          for (int j = i; j < end; j++) {
            out.append(text.charAt(j) == '\n' ? '\n' : ' ');
          }
          i = end;
        } else {
          out.append(c);
          i++;
        }
      }
      return out.toString();
    }

    private static String stripStrings(String code) {
      StringBuilder out = new StringBuilder(code.length());
      int i = 0;
      while (i < code.length()) {
        char c = code.charAt(i);
        if (c == '\'' || c == '"') {
          int end = stringEnd(code, i);
          out.append("''");
          i = end;
        } else {
          out.append(c);
          i++;
        }
      }
      return out.toString();
    }

    /** Index just past the string literal starting at {@code start}. */
    private static int stringEnd(String text, int start) {
      char quote = text.charAt(start);
      int i = start + 1;
      while (i < text.length()) {
        char c = text.charAt(i);
        if (c == '\\') {
          i += 2;
        } else if (c == quote || c == '\n') {
          return i + 1;
        } else {
          i++;
        }
      }
      return text.length();
    }

    private static boolean insideString(String code, int position) {
      int i = 0;
      while (i < position) {
        char c = code.charAt(i);
        if (c == '\'' || c == '"') {
          int end = stringEnd(code, i);
          if (end > position) {
            return true;
          }
          i = end;
        } else {
          i++;
        }
      }
      return false;
    }

    /** The comma-separated arguments from {@code start} up to the matching close parenthesis. */
    private static List<String> arguments(String code, int start) {
      int depth = 0;
      int i = start;
      while (i < code.length()) {
        char c = code.charAt(i);
        if (c == '\'' || c == '"') {
          i = stringEnd(code, i);
          continue;
        }
        if (c == '(' || c == '{' || c == '[') {
          depth++;
        } else if (c == ')' || c == '}' || c == ']') {
          if (depth == 0) {
            return splitTopLevel(code.substring(start, i));
          }
          depth--;
        }
        i++;
      }
      throw new IllegalArgumentException("Unclosed redis call at offset " + start);
    }

    /** Splits at commas outside strings and brackets; trims each part; none for blank text. */
    private static List<String> splitTopLevel(String text) {
      List<String> parts = new ArrayList<>();
      if (text.isBlank()) {
        return parts;
      }
      int depth = 0;
      int from = 0;
      int i = 0;
      while (i < text.length()) {
        char c = text.charAt(i);
        if (c == '\'' || c == '"') {
          i = stringEnd(text, i);
          continue;
        }
        if (c == '(' || c == '{' || c == '[') {
          depth++;
        } else if (c == ')' || c == '}' || c == ']') {
          depth--;
        } else if (c == ',' && depth == 0) {
          parts.add(text.substring(from, i).trim().replaceAll("\\s+", " "));
          from = i + 1;
        }
        i++;
      }
      parts.add(text.substring(from).trim().replaceAll("\\s+", " "));
      return parts;
    }

    private static Set<String> words(String text) {
      return Set.of(text.trim().split("\\s+"));
    }

    private static int lineOf(String text, int offset) {
      int line = 1;
      for (int i = 0; i < offset; i++) {
        if (text.charAt(i) == '\n') {
          line++;
        }
      }
      return line;
    }
  }
}
