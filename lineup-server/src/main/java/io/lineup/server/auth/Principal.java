package io.lineup.server.auth;

import java.util.EnumSet;
import java.util.Set;

/**
 * Who made a request: the admin (every route, every namespace) or the holder of a namespace token.
 *
 * @param admin whether this is the admin token
 * @param namespace the token's namespace (null for the admin)
 * @param scopes what the token may do (every scope for the admin)
 * @param maxPriority the highest priority the token may publish with
 * @param tokenId the token's public id ({@code admin} for the admin token)
 */
public record Principal(
    boolean admin, String namespace, Set<Scope> scopes, int maxPriority, String tokenId) {

  /** The admin: every scope, every namespace, every priority. */
  public static final Principal ADMIN =
      new Principal(true, null, EnumSet.allOf(Scope.class), Integer.MAX_VALUE, "admin");

  /** Whether the principal may act in this namespace. */
  public boolean covers(String ns) {
    return admin || namespace.equals(ns);
  }

  /** Whether it holds at least one of these scopes. */
  public boolean hasAny(Set<Scope> wanted) {
    for (Scope scope : wanted) {
      if (scopes.contains(scope)) {
        return true;
      }
    }
    return false;
  }
}
