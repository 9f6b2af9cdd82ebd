package io.lineup.dispatch;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;

/**
 * Seals what a callback job says (URL, {@code webhook-id}, body) when the server queues it, so that
 * the callback worker sends only what the server built: an HMAC-SHA256 under the namespace's
 * callback signing secret, over a message that no webhook signature covers (a webhook id is {@code
 * task_...}, never {@value #CONTEXT}). A seal never leaves Redis.
 */
final class CallbackSeal {
  /** What the seal is for: it stands where a webhook signature has the webhook id. */
  static final String CONTEXT = "lineup-callback-job";

  private CallbackSeal() {}

  /** The seal of a job's sealed text under the newest secret. */
  static String seal(String secret, String sealed) {
    return WebhookSignature.sign(secret, CONTEXT, 0, sealed.getBytes(StandardCharsets.UTF_8));
  }

  /** Whether the seal was made under one of the secrets (both are kept during a rotation). */
  static boolean verifies(List<String> secrets, String sealed, String seal) {
    if (sealed == null || seal == null) {
      return false;
    }
    byte[] given;
    try {
      given = Base64.getDecoder().decode(seal);
    } catch (IllegalArgumentException notBase64) {
      return false;
    }
    for (String secret : secrets) {
      byte[] expected = Base64.getDecoder().decode(seal(secret, sealed));
      if (MessageDigest.isEqual(expected, given)) {
        return true;
      }
    }
    return false;
  }
}
