package io.lineup.dispatch;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs callbacks as Standard Webhooks does: {@code v1,} and the base64 HMAC-SHA256 of {@code
 * id.timestamp.body} under each secret, separated by spaces.
 */
public final class WebhookSignature {
  /** The prefix of a secret's text. */
  public static final String SECRET_PREFIX = "whsec_";

  /** Bytes of a generated secret's key. */
  public static final int KEY_BYTES = 32;

  private static final SecureRandom RANDOM = new SecureRandom();

  private WebhookSignature() {}

  /** A new secret: {@code whsec_} and base64 of 32 random bytes. */
  public static String newSecret() {
    byte[] key = new byte[KEY_BYTES];
    RANDOM.nextBytes(key);
    return SECRET_PREFIX + Base64.getEncoder().encodeToString(key);
  }

  /** The {@code webhook-signature} header: one {@code v1,<signature>} per secret. */
  static String header(List<String> secrets, String id, long timestampSeconds, byte[] body) {
    StringBuilder out = new StringBuilder();
    for (String secret : secrets) {
      if (!out.isEmpty()) {
        out.append(' ');
      }
      out.append("v1,").append(sign(secret, id, timestampSeconds, body));
    }
    return out.toString();
  }

  /** The base64 HMAC-SHA256 of {@code id.timestamp.body} under the secret. */
  static String sign(String secret, String id, long timestampSeconds, byte[] body) {
    String encoded =
        secret.startsWith(SECRET_PREFIX) ? secret.substring(SECRET_PREFIX.length()) : secret;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Base64.getDecoder().decode(encoded), "HmacSHA256"));
      mac.update((id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
