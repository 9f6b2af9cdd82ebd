package io.lineup.pass;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.KeyPair;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Passes and key sets read and written by an independent JWT library (Nimbus JOSE+JWT). */
class NimbusInteropTest {
  @Test
  void nimbusReadsTheJwksAndVerifiesAPassWithAllItsClaims() throws Exception {
    KeyPair keys = Ed25519Keys.generate();
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    String token =
        new PassSigner("room-key-1", keys.getPrivate())
            .sign(new Pass("shop/checkout", "t1", "t1.1", now, now.plusSeconds(60), "room-key-1"));

    JWKSet set = JWKSet.parse(Jwks.toJson(Map.of("room-key-1", keys.getPublic())));
    OctetKeyPair jwk = (OctetKeyPair) set.getKeyByKeyId("room-key-1");
    SignedJWT jwt = SignedJWT.parse(token);

    assertThat(jwk.getCurve()).isEqualTo(Curve.Ed25519);
    assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.EdDSA);
    assertThat(jwt.getHeader().getKeyID()).isEqualTo("room-key-1");
    assertThat(jwt.verify(new Ed25519Verifier(jwk))).isTrue();
    JWTClaimsSet claims = jwt.getJWTClaimsSet();
    assertThat(claims.getAudience()).containsExactly("shop/checkout");
    assertThat(claims.getSubject()).isEqualTo("t1");
    assertThat(claims.getJWTID()).isEqualTo("t1.1");
    assertThat(claims.getIssueTime()).isEqualTo(Date.from(now));
    assertThat(claims.getExpirationTime()).isEqualTo(Date.from(now.plusSeconds(60)));
  }

  @Test
  void nimbusRejectsAPassSignedByAnotherKey() throws Exception {
    KeyPair keys = Ed25519Keys.generate();
    Instant now = Instant.now();
    String token =
        new PassSigner("k", Ed25519Keys.generate().getPrivate())
            .sign(new Pass("shop/checkout", "t1", "j", now, now.plusSeconds(60), "k"));
    OctetKeyPair jwk =
        (OctetKeyPair) JWKSet.parse(Jwks.toJson(Map.of("k", keys.getPublic()))).getKeyByKeyId("k");

    assertThat(SignedJWT.parse(token).verify(new Ed25519Verifier(jwk))).isFalse();
  }

  @Test
  void aPassSignedByNimbusVerifiesWithPassVerifierAndTheJwksNimbusPublishes() throws Exception {
    OctetKeyPair jwk = new OctetKeyPairGenerator(Curve.Ed25519).keyID("n1").generate();
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.EdDSA).type(JOSEObjectType.JWT).keyID("n1").build(),
            new JWTClaimsSet.Builder()
                .audience(List.of("shop/checkout"))
                .subject("t9")
                .jwtID("t9.1")
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(60)))
                .build());
    jwt.sign(new Ed25519Signer(jwk));

    PassVerifier verifier = PassVerifier.fromJwks(new JWKSet(jwk.toPublicJWK()).toString());
    Pass pass = verifier.verify(jwt.serialize(), "shop/checkout");

    assertThat(pass.ticket()).isEqualTo("t9");
    assertThat(pass.id()).isEqualTo("t9.1");
    assertThat(pass.expiresAt()).isEqualTo(now.plusSeconds(60));
  }
}
