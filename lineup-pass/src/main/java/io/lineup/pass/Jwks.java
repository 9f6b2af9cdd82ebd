package io.lineup.pass;

import java.security.PublicKey;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON Web Key Sets (RFC 7517) of Ed25519 public keys: {@code
 * {"keys":[{"kty":"OKP","crv":"Ed25519", "kid":…,"x":…,"alg":"EdDSA","use":"sig"}]}}.
 */
public final class Jwks {
  /** Largest JWKS text read, in characters. */
  public static final int MAX_LENGTH = 64 * 1024;

  private Jwks() {}

  /** The key set of these keys (key id to public key), in their order. */
  public static String toJson(Map<String, PublicKey> keys) {
    StringBuilder out = new StringBuilder("{\"keys\":[");
    boolean first = true;
    for (Map.Entry<String, PublicKey> e : keys.entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      out.append("{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":")
          .append(MiniJson.quote(e.getKey()))
          .append(",\"x\":\"")
          .append(
              Base64.getUrlEncoder().withoutPadding().encodeToString(Ed25519Keys.raw(e.getValue())))
          .append("\",\"alg\":\"EdDSA\",\"use\":\"sig\"}");
    }
    return out.append("]}").toString();
  }

  /**
   * The Ed25519 keys of a key set, by key id; keys of other types or curves are skipped.
   *
   * @throws IllegalArgumentException when the text is not a key set, is longer than {@link
   *     #MAX_LENGTH}, or an Ed25519 key in it is malformed or has no {@code kid}
   */
  public static Map<String, PublicKey> parse(String json) {
    if (json.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("a key set is at most " + MAX_LENGTH + " characters");
    }
    Object root = MiniJson.parse(json);
    if (!(root instanceof Map<?, ?> map) || !(map.get("keys") instanceof List<?> list)) {
      throw new IllegalArgumentException("a key set is an object with a keys array");
    }
    Map<String, PublicKey> keys = new LinkedHashMap<>();
    for (Object item : list) {
      if (!(item instanceof Map<?, ?> jwk)) {
        throw new IllegalArgumentException("every key is an object");
      }
      if (!"OKP".equals(jwk.get("kty")) || !"Ed25519".equals(jwk.get("crv"))) {
        continue;
      }
      if (!(jwk.get("kid") instanceof String kid) || !(jwk.get("x") instanceof String x)) {
        throw new IllegalArgumentException("an Ed25519 key needs kid and x");
      }
      byte[] raw;
      try {
        raw = Base64.getUrlDecoder().decode(x);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("x of key " + kid + " is not base64url");
      }
      keys.put(kid, Ed25519Keys.fromRaw(raw));
    }
    return keys;
  }
}
