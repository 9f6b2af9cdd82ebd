package io.lineup.pass;

import static io.lineup.pass.PassRejectedException.Reason.BAD_SIGNATURE;
import static io.lineup.pass.PassRejectedException.Reason.EXPIRED;
import static io.lineup.pass.PassRejectedException.Reason.MALFORMED;
import static io.lineup.pass.PassRejectedException.Reason.NOT_YET_VALID;
import static io.lineup.pass.PassRejectedException.Reason.UNKNOWN_KEY;
import static io.lineup.pass.PassRejectedException.Reason.UNSUPPORTED_ALGORITHM;
import static io.lineup.pass.PassRejectedException.Reason.WRONG_ROOM;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks waiting-room passes offline, with the room's public keys (its JWKS): the signature
 * (Ed25519 only; {@code none} and every other algorithm are refused), the audience, the expiry and
 * the issue time. It cannot know about revoked passes; Lineup's {@code POST /v1/passes/verify} can.
 * Signatures are verified with the JDK's {@code Signature.getInstance("Ed25519")} unless {@link
 * #withEd25519Engine} chooses lineup-pass's faster own verifier; a pass whose signature verified is
 * remembered ({@link #withCachedTokens}), so its next checks skip the signature. Immutable and
 * thread-safe.
 *
 * <pre>{@code
 * PassVerifier verifier = PassVerifier.fromJwks(jwksText);
 * Pass pass = verifier.verify(token, "shop/checkout"); // throws PassRejectedException
 * }</pre>
 */
public final class PassVerifier {
  /** Longest token read, in characters; a pass is about 300. */
  public static final int MAX_TOKEN_LENGTH = 4096;

  /** Default allowance for clocks that differ between Lineup and the verifier: 5 s. */
  public static final Duration DEFAULT_LEEWAY = Duration.ofSeconds(5);

  // Epoch seconds beyond which a time claim is refused: about the year 318,857.
  private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(10_000_000_000_000L);

  /**
   * Default number of verified tokens a verifier remembers: 10,000 (about 3 MB for passes of about
   * 300 characters).
   */
  public static final int DEFAULT_CACHED_TOKENS = 10_000;

  private final Map<String, PublicKey> keys;
  private final Ed25519Engine engine;
  // Made once per engine and shared by the with* copies (a tabulated key keeps its table).
  private final Map<String, SignatureCheck> signatureCheckers;
  private final Clock clock;
  private final Duration leeway;
  private final int cachedTokens;
  private final VerifiedTokens verified;

  private PassVerifier(
      Map<String, PublicKey> keys,
      Ed25519Engine engine,
      Map<String, SignatureCheck> signatureCheckers,
      Clock clock,
      Duration leeway,
      int cachedTokens) {
    this.keys = keys;
    this.engine = engine;
    this.signatureCheckers = signatureCheckers;
    this.clock = clock;
    this.leeway = leeway;
    this.cachedTokens = cachedTokens;
    this.verified = new VerifiedTokens(cachedTokens);
  }

  /**
   * A verifier that trusts these keys.
   *
   * @param keys key id ({@code kid}) to Ed25519 public key
   * @throws NullPointerException when the map, an id or a key is null
   */
  public static PassVerifier of(Map<String, PublicKey> keys) {
    Map<String, PublicKey> copy = Map.copyOf(keys);
    return new PassVerifier(
        copy,
        Ed25519Engine.JDK,
        checkers(copy, Ed25519Engine.JDK),
        Clock.systemUTC(),
        DEFAULT_LEEWAY,
        DEFAULT_CACHED_TOKENS);
  }

  private static Map<String, SignatureCheck> checkers(
      Map<String, PublicKey> keys, Ed25519Engine engine) {
    Map<String, SignatureCheck> checkers = new HashMap<>();
    keys.forEach((kid, key) ->
        checkers.put(
            kid,
            switch (engine) {
              case JDK -> JdkEd25519Verifier.of(key);
              case TABULATED -> Ed25519Verifier.of(key);
            }));
    return Map.copyOf(checkers);
  }

  /**
   * A verifier that trusts the Ed25519 keys of a JWKS, as served at {@code
   * /v1/rooms/{ns}/{room}/jwks.json}.
   *
   * @throws IllegalArgumentException when the text is not a valid key set
   */
  public static PassVerifier fromJwks(String jwks) {
    return of(Jwks.parse(jwks));
  }

  /** The same verifier reading the time from {@code clock} (for tests). */
  public PassVerifier withClock(Clock clock) {
    return new PassVerifier(
        keys,
        engine,
        signatureCheckers,
        Objects.requireNonNull(clock, "clock"),
        leeway,
        cachedTokens);
  }

  /**
   * The same verifier allowing clocks to differ by {@code leeway} (default {@link
   * #DEFAULT_LEEWAY}).
   *
   * @throws IllegalArgumentException when the leeway is negative
   */
  public PassVerifier withLeeway(Duration leeway) {
    if (leeway.isNegative()) {
      throw new IllegalArgumentException("leeway must not be negative");
    }
    return new PassVerifier(keys, engine, signatureCheckers, clock, leeway, cachedTokens);
  }

  /**
   * The same verifier remembering at most {@code count} tokens whose signature verified (default
   * {@link #DEFAULT_CACHED_TOKENS}); 0 verifies every signature every time. The new verifier starts
   * with nothing remembered.
   *
   * @throws IllegalArgumentException when the count is negative
   */
  public PassVerifier withCachedTokens(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("the count of cached tokens must not be negative");
    }
    return new PassVerifier(keys, engine, signatureCheckers, clock, leeway, count);
  }

  /**
   * The same verifier checking signatures with {@code engine}: {@link Ed25519Engine#JDK} (the
   * default) or the opt-in {@link Ed25519Engine#TABULATED}, about 20 times faster on a first check
   * (about 25 µs against 500 µs on a server core) and with the same answers on every input. The new
   * verifier starts with nothing remembered.
   *
   * @throws NullPointerException when the engine is null
   */
  public PassVerifier withEd25519Engine(Ed25519Engine engine) {
    Objects.requireNonNull(engine, "engine");
    Map<String, SignatureCheck> checkers =
        engine == this.engine ? signatureCheckers : checkers(keys, engine);
    return new PassVerifier(keys, engine, checkers, clock, leeway, cachedTokens);
  }

  /** The engine this verifier checks signatures with. */
  public Ed25519Engine ed25519Engine() {
    return engine;
  }

  /** How many verified tokens this verifier remembers now. */
  int cachedTokenCount() {
    return verified.size();
  }

  /**
   * Checks a pass for a room.
   *
   * @param token the compact JWT (three base64url parts)
   * @param room the room the caller protects, {@code namespace/room}; the pass's {@code aud}
   * @return the pass's claims
   * @throws PassRejectedException when the pass is malformed, signed with an unknown key or another
   *     algorithm, altered, for another room, expired (beyond the leeway) or issued in the future
   * @throws NullPointerException when an argument is null
   */
  public Pass verify(String token, String room) throws PassRejectedException {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(room, "room");
    Pass known = verified.get(token);
    if (known != null) {
      return checkClaims(known, room);
    }
    if (token.length() > MAX_TOKEN_LENGTH) {
      throw new PassRejectedException(MALFORMED, "longer than " + MAX_TOKEN_LENGTH + " characters");
    }
    int first = token.indexOf('.');
    int second = first < 0 ? -1 : token.indexOf('.', first + 1);
    if (first < 0 || second < 0 || token.indexOf('.', second + 1) >= 0) {
      throw new PassRejectedException(MALFORMED, "not three dot-separated parts");
    }
    Map<?, ?> header = jsonObject(token.substring(0, first), "header");
    if (!"EdDSA".equals(header.get("alg"))) {
      throw new PassRejectedException(UNSUPPORTED_ALGORITHM, "the algorithm must be EdDSA");
    }
    if (header.containsKey("crit")) {
      throw new PassRejectedException(MALFORMED, "critical header extensions are not understood");
    }
    if (!(header.get("kid") instanceof String kid)) {
      throw new PassRejectedException(MALFORMED, "the header has no kid");
    }
    SignatureCheck key = signatureCheckers.get(kid);
    if (key == null) {
      throw new PassRejectedException(UNKNOWN_KEY, "no key " + kid);
    }
    byte[] signature = decode(token.substring(second + 1), "signature");
    byte[] signingInput = token.substring(0, second).getBytes(StandardCharsets.US_ASCII);
    if (!key.verify(signingInput, signature)) {
      throw new PassRejectedException(BAD_SIGNATURE, "the signature does not match");
    }
    Map<?, ?> claims = jsonObject(token.substring(first + 1, second), "claims");
    String aud = text(claims, "aud");
    String sub = text(claims, "sub");
    String jti = text(claims, "jti");
    Instant iat = Instant.ofEpochSecond(seconds(claims, "iat"));
    Instant exp = Instant.ofEpochSecond(seconds(claims, "exp"));
    Pass pass = new Pass(aud, sub, jti, iat, exp, kid);
    // Remembered before the room and times are checked: those are checked on every use anyway.
    verified.put(token, pass, clock.instant().minus(leeway));
    return checkClaims(pass, room);
  }

  /** The checks that depend on the caller's room and the time, made on every use of a token. */
  private Pass checkClaims(Pass pass, String room) throws PassRejectedException {
    if (!pass.room().equals(room)) {
      throw new PassRejectedException(WRONG_ROOM, "the pass is for room " + pass.room());
    }
    Instant now = clock.instant();
    if (!now.isBefore(pass.expiresAt().plus(leeway))) {
      throw new PassRejectedException(EXPIRED, "expired at " + pass.expiresAt());
    }
    if (pass.issuedAt().isAfter(now.plus(leeway))) {
      throw new PassRejectedException(NOT_YET_VALID, "issued in the future, at " + pass.issuedAt());
    }
    return pass;
  }

  private static byte[] decode(String part, String what) throws PassRejectedException {
    // Strict base64url without padding: the decoder alone would also take '=' and line breaks.
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      boolean ok =
          (c >= 'A' && c <= 'Z')
              || (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_';
      if (!ok) {
        throw new PassRejectedException(MALFORMED, "the " + what + " is not base64url");
      }
    }
    try {
      return Base64.getUrlDecoder().decode(part);
    } catch (IllegalArgumentException e) {
      throw new PassRejectedException(MALFORMED, "the " + what + " is not base64url");
    }
  }

  private static Map<?, ?> jsonObject(String part, String what) throws PassRejectedException {
    String text = new String(decode(part, what), StandardCharsets.UTF_8);
    Object value;
    try {
      value = MiniJson.parse(text);
    } catch (IllegalArgumentException e) {
      throw new PassRejectedException(MALFORMED, "the " + what + " is not JSON: " + e.getMessage());
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new PassRejectedException(MALFORMED, "the " + what + " is not a JSON object");
    }
    return map;
  }

  private static String text(Map<?, ?> claims, String name) throws PassRejectedException {
    Object value = claims.get(name);
    if (value instanceof List<?> list && name.equals("aud") && list.size() == 1) {
      value = list.get(0); // RFC 7519 allows one audience as a one-element array
    }
    if (!(value instanceof String s) || s.isEmpty()) {
      throw new PassRejectedException(MALFORMED, "the claim " + name + " is missing");
    }
    return s;
  }

  private static long seconds(Map<?, ?> claims, String name) throws PassRejectedException {
    if (!(claims.get(name) instanceof BigDecimal number)) {
      throw new PassRejectedException(MALFORMED, "the claim " + name + " is missing");
    }
    // Bounded before rounding: a number such as 1e999999999 would be costly to expand.
    if (number.abs().compareTo(MAX_SECONDS) > 0) {
      throw new PassRejectedException(MALFORMED, "the claim " + name + " is out of range");
    }
    return number.setScale(0, RoundingMode.FLOOR).longValueExact();
  }
}
