package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.pass.Ed25519Engine;
import io.lineup.pass.Ed25519Keys;
import io.lineup.pass.Pass;
import io.lineup.pass.PassRejectedException;
import io.lineup.pass.PassSigner;
import io.lineup.pass.PassVerifier;
import java.security.KeyPair;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code pass_verify_us_p99}, {@code pass_verify_repeat_us_p99} and {@code
 * pass_verify_tabulated_us_p99}: the offline check a gateway makes with {@code PassVerifier} (no
 * Redis, no network), one thread, each check timed alone. The first figure checks {@link
 * RoomCounts#passTokens()} distinct passes once each with a default verifier (an Ed25519
 * verification each by the JDK's {@code Signature}); the second checks the same passes again, which
 * the verifier answers from the tokens it remembers (room and times still checked); the third
 * checks them once each with a verifier of the opt-in engine {@code Ed25519Engine.TABULATED}. Each
 * after a warm-up of as many other passes, so the JIT has compiled the Ed25519 code, with another
 * verifier of the same engine (the measured one starts empty and remembers the measured passes:
 * {@link RoomCounts#passTokens()} is at most its default capacity).
 */
final class PassVerifyScenario {
  private static final String ROOM = "lineup-bench/checkout";

  private PassVerifyScenario() {}

  static List<Figure> run(BenchContext context, RoomCounts counts) {
    KeyPair keys = Ed25519Keys.generate();
    PassSigner signer = new PassSigner("k1", keys.getPrivate());
    int n = counts.passTokens();
    context.say("pass_verify: signing %,d passes", 2 * n);
    String[] warm = sign(signer, "w", n);
    String[] tokens = sign(signer, "t", n);
    context.say("pass_verify: warm-up %,d checks", n);
    PassVerifier jdk = PassVerifier.of(Map.of("k1", keys.getPublic()));
    time(jdk, warm);
    // A verifier of its own for the measurement, so it remembers exactly the measured passes.
    PassVerifier verifier = jdk.withCachedTokens(PassVerifier.DEFAULT_CACHED_TOKENS);
    BenchContext.collectGarbage();
    RedisProbe probe = RedisProbe.start(context);
    Percentiles first = time(verifier, tokens);
    RedisProbe.Cost firstCost = probe.finish("pass_verify_us_p99", n);
    probe = RedisProbe.start(context);
    Percentiles repeat = time(verifier, tokens);
    RedisProbe.Cost repeatCost = probe.finish("pass_verify_repeat_us_p99", n);
    context.say(
        "pass_verify: first check (JDK) p50 %.1f µs, p99 %.1f µs; repeated p50 %.2f µs, p99 %.2f µs",
        first.at(50), first.at(99), repeat.at(50), repeat.at(99));

    PassVerifier tabulated = jdk.withEd25519Engine(Ed25519Engine.TABULATED);
    context.say("pass_verify: warm-up %,d checks of the tabulated engine", n);
    time(tabulated, warm);
    PassVerifier measured = tabulated.withCachedTokens(PassVerifier.DEFAULT_CACHED_TOKENS);
    BenchContext.collectGarbage();
    probe = RedisProbe.start(context);
    Percentiles fast = time(measured, tokens);
    RedisProbe.Cost fastCost = probe.finish("pass_verify_tabulated_us_p99", n);
    context.say(
        "pass_verify: first check (tabulated) p50 %.1f µs, p99 %.1f µs", fast.at(50), fast.at(99));
    return List.of(
        figure("pass_verify_us_p99", first, firstCost, n),
        figure("pass_verify_repeat_us_p99", repeat, repeatCost, n),
        figure("pass_verify_tabulated_us_p99", fast, fastCost, n));
  }

  private static Figure figure(String name, Percentiles micros, RedisProbe.Cost cost, int n) {
    return new Figure(
        name,
        micros.at(99),
        Figure.Unit.MICROSECONDS,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        n);
  }

  private static String[] sign(PassSigner signer, String prefix, int n) {
    Instant now = Instant.now();
    String[] tokens = new String[n];
    for (int i = 0; i < n; i++) {
      String ticket = prefix + i;
      tokens[i] =
          signer.sign(new Pass(ROOM, ticket, ticket + ".1", now, now.plusSeconds(3_600), "k1"));
    }
    return tokens;
  }

  /** Checks each token once; returns the checks' times in µs. */
  private static Percentiles time(PassVerifier verifier, String[] tokens) {
    double[] micros = new double[tokens.length];
    for (int i = 0; i < tokens.length; i++) {
      long start = System.nanoTime();
      try {
        verifier.verify(tokens[i], ROOM);
      } catch (PassRejectedException e) {
        throw new IllegalStateException("pass_verify: a valid pass was refused: " + e.reason(), e);
      }
      micros[i] = (System.nanoTime() - start) / 1e3;
    }
    return new Percentiles(micros);
  }
}
