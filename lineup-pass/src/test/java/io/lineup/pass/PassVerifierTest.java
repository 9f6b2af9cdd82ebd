package io.lineup.pass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PassVerifierTest {
  static final Instant NOW = Instant.parse("2026-05-01T12:00:00Z");
  static final String ROOM = "shop/checkout";

  final KeyPair keys = Ed25519Keys.generate();
  final PassSigner signer = new PassSigner("k1", keys.getPrivate());
  final PassVerifier verifier =
      PassVerifier.of(Map.of("k1", keys.getPublic())).withClock(Clock.fixed(NOW, ZoneOffset.UTC));

  static Pass pass(Instant iat, Instant exp) {
    return new Pass(ROOM, "t-abc", "t-abc.1", iat, exp, "k1");
  }

  String valid() {
    return signer.sign(pass(NOW.minusSeconds(10), NOW.plusSeconds(300)));
  }

  static PassRejectedException.Reason reasonOf(PassVerifier verifier, String token, String room) {
    try {
      verifier.verify(token, room);
    } catch (PassRejectedException e) {
      return e.reason();
    }
    throw new AssertionError("the pass was accepted");
  }

  static String b64(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aValidPassVerifiesAndGivesItsClaims() throws Exception {
    Pass pass = verifier.verify(valid(), ROOM);

    assertThat(pass).isEqualTo(pass(NOW.minusSeconds(10), NOW.plusSeconds(300)));
  }

  @Test
  void theSameClaimsAlwaysGiveTheSameToken() {
    assertThat(valid()).isEqualTo(valid());
  }

  @Test
  void aPassWhoseClaimsWereAlteredIsRejected() {
    String[] parts = valid().split("\\.");
    String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
    String altered = parts[0] + "." + b64(claims.replace("t-abc\"", "t-abd\"")) + "." + parts[2];

    assertThat(reasonOf(verifier, altered, ROOM))
        .isEqualTo(PassRejectedException.Reason.BAD_SIGNATURE);
  }

  @Test
  void aPassWithOneFlippedSignatureBitIsRejected() {
    String token = valid();
    char last = token.charAt(token.length() - 2);
    String flipped =
        token.substring(0, token.length() - 2)
            + (last == 'A' ? 'B' : 'A')
            + token.charAt(token.length() - 1);

    assertThat(reasonOf(verifier, flipped, ROOM))
        .isEqualTo(PassRejectedException.Reason.BAD_SIGNATURE);
  }

  @Test
  void signaturesAreCheckedWithTheJdksEd25519UnlessTheTabulatedOneIsChosen() {
    assertThat(verifier.ed25519Engine()).isEqualTo(Ed25519Engine.JDK);
    assertThat(PassVerifier.fromJwks(Jwks.toJson(Map.of("k1", keys.getPublic()))).ed25519Engine())
        .isEqualTo(Ed25519Engine.JDK);
    assertThat(verifier.withLeeway(Duration.ZERO).withCachedTokens(0).ed25519Engine())
        .isEqualTo(Ed25519Engine.JDK);
    assertThat(verifier.withEd25519Engine(Ed25519Engine.TABULATED).ed25519Engine())
        .isEqualTo(Ed25519Engine.TABULATED);
  }

  @Test
  void theTabulatedEngineAcceptsAndRefusesTheSamePassesAsTheJdks() throws Exception {
    PassVerifier tabulated = verifier.withEd25519Engine(Ed25519Engine.TABULATED);
    PassVerifier jdk = tabulated.withEd25519Engine(Ed25519Engine.JDK);
    String token = valid();
    String[] parts = token.split("\\.");
    String otherKey =
        new PassSigner("k1", Ed25519Keys.generate().getPrivate())
            .sign(pass(NOW.minusSeconds(10), NOW.plusSeconds(300)));
    String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
    String altered = parts[0] + "." + b64(claims.replace("t-abc\"", "t-abd\"")) + "." + parts[2];

    for (PassVerifier v : new PassVerifier[] {tabulated, jdk}) {
      assertThat(v.verify(token, ROOM).ticket()).isEqualTo("t-abc");
      assertThat(reasonOf(v, otherKey, ROOM)).isEqualTo(PassRejectedException.Reason.BAD_SIGNATURE);
      assertThat(reasonOf(v, altered, ROOM)).isEqualTo(PassRejectedException.Reason.BAD_SIGNATURE);
    }
  }

  @Test
  void aVerifierWithAnotherEngineStartsWithNothingRemembered() throws Exception {
    verifier.verify(valid(), ROOM);

    assertThat(verifier.cachedTokenCount()).isEqualTo(1);
    assertThat(verifier.withEd25519Engine(Ed25519Engine.TABULATED).cachedTokenCount()).isZero();
    assertThatThrownBy(() -> verifier.withEd25519Engine(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void anExpiredPassIsRejectedOnceTheLeewayIsOver() throws Exception {
    String token = signer.sign(pass(NOW.minusSeconds(300), NOW.minusSeconds(1)));
    assertThat(verifier.verify(token, ROOM).ticket()).isEqualTo("t-abc"); // within 5 s leeway

    String older = signer.sign(pass(NOW.minusSeconds(300), NOW.minusSeconds(5)));
    assertThat(reasonOf(verifier, older, ROOM)).isEqualTo(PassRejectedException.Reason.EXPIRED);
  }

  @Test
  void aPassIssuedInTheFutureIsRejected() {
    String token = signer.sign(pass(NOW.plusSeconds(60), NOW.plusSeconds(300)));

    assertThat(reasonOf(verifier, token, ROOM))
        .isEqualTo(PassRejectedException.Reason.NOT_YET_VALID);
  }

  @Test
  void aPassForAnotherRoomIsRejected() {
    assertThat(reasonOf(verifier, valid(), "shop/other"))
        .isEqualTo(PassRejectedException.Reason.WRONG_ROOM);
  }

  @Test
  void aPassSignedWithAnotherKeyUnderTheSameIdIsRejected() {
    PassSigner impostor = new PassSigner("k1", Ed25519Keys.generate().getPrivate());
    String token = impostor.sign(pass(NOW, NOW.plusSeconds(300)));

    assertThat(reasonOf(verifier, token, ROOM))
        .isEqualTo(PassRejectedException.Reason.BAD_SIGNATURE);
  }

  @Test
  void aPassNamingAnUnknownKeyIsRejected() {
    PassSigner other = new PassSigner("k2", Ed25519Keys.generate().getPrivate());
    String token = other.sign(new Pass(ROOM, "t", "j", NOW, NOW.plusSeconds(60), "k2"));

    assertThat(reasonOf(verifier, token, ROOM)).isEqualTo(PassRejectedException.Reason.UNKNOWN_KEY);
  }

  @Test
  void anUnsignedPassWithAlgorithmNoneIsRejected() {
    String[] parts = valid().split("\\.");
    String none = b64("{\"alg\":\"none\",\"kid\":\"k1\"}") + "." + parts[1] + ".";

    assertThat(reasonOf(verifier, none, ROOM))
        .isEqualTo(PassRejectedException.Reason.UNSUPPORTED_ALGORITHM);
  }

  @Test
  void garbageIsRejectedAsMalformed() {
    for (String garbage :
        new String[] {
          "",
          "abc",
          "a.b",
          "a.b.c.d",
          "!!.!!.!!",
          b64("[1]") + ".e30.AA",
          "x".repeat(5000),
          b64("{\"alg\":\"EdDSA\",\"kid\":\"k1\",\"kid\":\"k2\"}") + ".e30.AA"
        }) {
      assertThat(reasonOf(verifier, garbage, ROOM))
          .as(garbage.length() > 40 ? garbage.substring(0, 40) : garbage)
          .isEqualTo(PassRejectedException.Reason.MALFORMED);
    }
  }

  @Test
  void aSignedPassWithoutItsClaimsIsRejectedAsMalformed() throws Exception {
    String header = b64("{\"alg\":\"EdDSA\",\"typ\":\"JWT\",\"kid\":\"k1\"}");
    String claims = b64("{\"aud\":\"shop/checkout\",\"exp\":1e999999999}");
    java.security.Signature s = java.security.Signature.getInstance("Ed25519");
    s.initSign(keys.getPrivate());
    s.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
    String token =
        header
            + "."
            + claims
            + "."
            + Base64.getUrlEncoder().withoutPadding().encodeToString(s.sign());

    assertThat(reasonOf(verifier, token, ROOM)).isEqualTo(PassRejectedException.Reason.MALFORMED);
  }

  @Test
  void aVerifierBuiltFromTheJwksAcceptsThePassAndKeepsRotatedKeys() throws Exception {
    KeyPair newer = Ed25519Keys.generate();
    String jwks =
        Jwks.toJson(
            new java.util.LinkedHashMap<>(Map.of("k1", keys.getPublic(), "k2", newer.getPublic())));
    PassVerifier fromJwks = PassVerifier.fromJwks(jwks).withClock(Clock.fixed(NOW, ZoneOffset.UTC));

    assertThat(fromJwks.verify(valid(), ROOM).keyId()).isEqualTo("k1");
    String byNewer =
        new PassSigner("k2", newer.getPrivate())
            .sign(new Pass(ROOM, "t2", "t2.1", NOW, NOW.plusSeconds(60), "k2"));
    assertThat(fromJwks.verify(byNewer, ROOM).keyId()).isEqualTo("k2");
  }

  @Test
  void aMalformedJwksIsRefused() {
    assertThatThrownBy(
            () -> PassVerifier.fromJwks("{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\"}]}"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PassVerifier.fromJwks("not json"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void privateKeysSurviveTheirTextForm() throws Exception {
    PassSigner again =
        new PassSigner(
            "k1", Ed25519Keys.privateKeyFromText(Ed25519Keys.privateKeyText(keys.getPrivate())));

    assertThat(again.sign(pass(NOW, NOW.plusSeconds(60))))
        .isEqualTo(signer.sign(pass(NOW, NOW.plusSeconds(60))));
  }

  /** A clock a test moves forward. */
  static final class MovableClock extends Clock {
    private volatile Instant now;

    MovableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void aRepeatedPassIsRememberedAndStillAccepted() throws Exception {
    String token = valid();

    Pass first = verifier.verify(token, ROOM);
    Pass again = verifier.verify(token, ROOM);

    assertThat(again).isEqualTo(first);
    assertThat(verifier.cachedTokenCount()).isEqualTo(1);
  }

  @Test
  void aRememberedPassIsRefusedOnceItExpires() throws Exception {
    MovableClock clock = new MovableClock(NOW);
    PassVerifier remembering = verifier.withClock(clock);
    String token = valid();
    remembering.verify(token, ROOM);

    clock.advance(Duration.ofSeconds(300).plus(PassVerifier.DEFAULT_LEEWAY));

    assertThat(reasonOf(remembering, token, ROOM)).isEqualTo(PassRejectedException.Reason.EXPIRED);
  }

  @Test
  void aRememberedPassIsStillRefusedForAnotherRoom() throws Exception {
    String token = valid();
    verifier.verify(token, ROOM);

    assertThat(reasonOf(verifier, token, "shop/other"))
        .isEqualTo(PassRejectedException.Reason.WRONG_ROOM);
  }

  @Test
  void anAlteredCopyOfARememberedPassIsRefused() throws Exception {
    String token = valid();
    verifier.verify(token, ROOM);
    char last = token.charAt(token.length() - 2);
    String flipped =
        token.substring(0, token.length() - 2)
            + (last == 'A' ? 'B' : 'A')
            + token.charAt(token.length() - 1);

    assertThat(reasonOf(verifier, flipped, ROOM))
        .isEqualTo(PassRejectedException.Reason.BAD_SIGNATURE);
  }

  @Test
  void aPassWhoseSignatureFailsIsNotRemembered() {
    String token = valid();
    String forged = token.substring(0, token.length() - 4) + "AAAA";

    assertThat(reasonOf(verifier, forged, ROOM))
        .isEqualTo(PassRejectedException.Reason.BAD_SIGNATURE);
    assertThat(reasonOf(verifier, forged, ROOM))
        .isEqualTo(PassRejectedException.Reason.BAD_SIGNATURE);
    assertThat(verifier.cachedTokenCount()).isZero();
  }

  @Test
  void theVerifierRemembersNoMoreTokensThanItsCapacity() throws Exception {
    PassVerifier small = verifier.withCachedTokens(3);
    for (int i = 0; i < 10; i++) {
      String token =
          signer.sign(
              new Pass(
                  ROOM, "t" + i, "t" + i + ".1", NOW.minusSeconds(1), NOW.plusSeconds(60), "k1"));
      small.verify(token, ROOM);
      assertThat(small.cachedTokenCount()).isBetween(1, 3);
      assertThat(small.verify(token, ROOM).ticket()).isEqualTo("t" + i);
    }
  }

  @Test
  void aVerifierWithoutACacheChecksEveryTimeAndRemembersNothing() throws Exception {
    PassVerifier uncached = verifier.withCachedTokens(0);
    String token = valid();

    uncached.verify(token, ROOM);
    uncached.verify(token, ROOM);

    assertThat(uncached.cachedTokenCount()).isZero();
    assertThatThrownBy(() -> verifier.withCachedTokens(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
