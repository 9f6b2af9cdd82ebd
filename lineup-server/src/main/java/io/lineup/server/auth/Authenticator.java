package io.lineup.server.auth;

import io.lineup.api.ErrorCode;
import io.lineup.server.http.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Checks the {@code Authorization: Bearer} header of a request: the admin token (compared by hash
 * in constant time) or a namespace token looked up in the {@link TokenStore} on every call.
 */
public final class Authenticator {
  /** Longest Authorization header value read, in characters. */
  public static final int MAX_HEADER_LENGTH = 512;

  private final byte[] adminHash;
  private final TokenStore tokens;

  public Authenticator(String adminToken, TokenStore tokens) {
    this.adminHash = TokenStore.sha256(adminToken).getBytes(StandardCharsets.US_ASCII);
    this.tokens = tokens;
  }

  /**
   * Who sent this header.
   *
   * @throws ApiException 401 when it is missing, malformed, unknown or revoked
   * @throws io.lineup.core.model.RedisUnavailableException when the token store cannot be read
   */
  public Principal authenticate(String authorization) {
    Principal known = authenticateLocally(authorization);
    if (known != null) {
      return known;
    }
    return principalOf(tokens.find(tokenOf(authorization)));
  }

  private static Principal principalOf(Optional<TokenRecord> record) {
    if (record.isEmpty()) {
      throw unauthorized("unknown or revoked token");
    }
    return record.get().principal();
  }

  /**
   * {@link #authenticate} as far as it goes without reading the token store: the admin, or null
   * when the header holds some other token (only the store can tell whose). Never blocks.
   *
   * @throws ApiException 401 when the header is missing or malformed
   */
  public Principal authenticateLocally(String authorization) {
    String token = tokenOf(authorization);
    byte[] presented = TokenStore.sha256(token).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(adminHash, presented) ? Principal.ADMIN : null;
  }

  /**
   * The header's token.
   *
   * @throws ApiException 401 when the header is missing or malformed
   */
  private static String tokenOf(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      throw unauthorized("a token is needed: send Authorization: Bearer <token>");
    }
    if (authorization.length() > MAX_HEADER_LENGTH
        || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw unauthorized("expected Authorization: Bearer <token>");
    }
    String token = authorization.substring(7).trim();
    if (token.isEmpty()) {
      throw unauthorized("expected Authorization: Bearer <token>");
    }
    return token;
  }

  /**
   * Checks that a principal may call a route.
   *
   * @param namespace the path's namespace (for {@link Access.Kind#NAMESPACE})
   * @throws ApiException 403 when it may not
   */
  public static void authorize(Principal principal, Access access, String namespace) {
    switch (access.kind()) {
      case PUBLIC, ANY_TOKEN -> {}
      case ADMIN, METRICS -> {
        if (!principal.admin()) {
          throw ApiException.forbidden("only the admin token may call this route");
        }
      }
      case NAMESPACE -> {
        if (!principal.covers(namespace)) {
          throw ApiException.forbidden(
              "this token is for namespace '"
                  + principal.namespace()
                  + "', not '"
                  + namespace
                  + "'");
        }
        if (!principal.hasAny(access.anyOf())) {
          throw ApiException.forbidden(
              "this token lacks the scope this route needs: "
                  + access.anyOf().stream()
                      .map(Scope::jsonName)
                      .collect(Collectors.joining(" or ")));
        }
      }
    }
  }

  private static ApiException unauthorized(String message) {
    return new ApiException(ErrorCode.UNAUTHORIZED, null, message);
  }
}
