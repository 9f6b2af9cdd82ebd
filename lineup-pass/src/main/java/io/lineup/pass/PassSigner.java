package io.lineup.pass;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Objects;

/**
 * Signs passes: a compact JWT (RFC 7519) with the header {@code
 * {"alg":"EdDSA","typ":"JWT","kid":…}} and the claims {@code aud}, {@code sub}, {@code jti}, {@code
 * iat}, {@code exp}, signed with Ed25519 (RFC 8037). Ed25519 signatures are deterministic, so the
 * same claims always give the same token. Thread-safe.
 */
public final class PassSigner {
  private final String keyId;
  private final PrivateKey key;

  /**
   * @param keyId the id the verifier finds the public key by (the JWK's {@code kid})
   * @param key an Ed25519 private key
   * @throws NullPointerException when an argument is null
   */
  public PassSigner(String keyId, PrivateKey key) {
    this.keyId = Objects.requireNonNull(keyId, "keyId");
    this.key = Objects.requireNonNull(key, "key");
  }

  /** The id of the signing key. */
  public String keyId() {
    return keyId;
  }

  /**
   * The signed token of a pass; its {@link Pass#keyId()} must be this signer's.
   *
   * @throws IllegalArgumentException when the pass names another key
   */
  public String sign(Pass pass) {
    if (!pass.keyId().equals(keyId)) {
      throw new IllegalArgumentException("the pass names key " + pass.keyId() + ", not " + keyId);
    }
    String header = "{\"alg\":\"EdDSA\",\"typ\":\"JWT\",\"kid\":" + MiniJson.quote(keyId) + "}";
    String claims =
        "{\"aud\":"
            + MiniJson.quote(pass.room())
            + ",\"sub\":"
            + MiniJson.quote(pass.ticket())
            + ",\"jti\":"
            + MiniJson.quote(pass.id())
            + ",\"iat\":"
            + pass.issuedAt().getEpochSecond()
            + ",\"exp\":"
            + pass.expiresAt().getEpochSecond()
            + "}";
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String signingInput =
        b64.encodeToString(header.getBytes(StandardCharsets.UTF_8))
            + "."
            + b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
    try {
      Signature signature = Signature.getInstance("Ed25519");
      signature.initSign(key);
      signature.update(signingInput.getBytes(StandardCharsets.US_ASCII));
      return signingInput + "." + b64.encodeToString(signature.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("could not sign with Ed25519", e);
    }
  }
}
