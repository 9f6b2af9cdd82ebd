package io.lineup.server.auth;

import java.util.EnumSet;
import java.util.Set;

/**
 * Who may call a route.
 *
 * @param kind the rule
 * @param anyOf for {@link Kind#NAMESPACE}: the scopes of which the token needs at least one
 */
public record Access(Kind kind, Set<Scope> anyOf) {
  /** The kinds of rule. */
  public enum Kind {
    /** No token needed ({@code /health}, {@code /ready}, {@code /openapi.json}). */
    PUBLIC,
    /** Any valid token (the route filters what it shows by the token's namespace). */
    ANY_TOKEN,
    /** The admin token only. */
    ADMIN,
    /** A token of the path's namespace {@code {ns}} with one of the scopes, or the admin. */
    NAMESPACE,
    /** Public or admin-only, as the server's {@code metrics_public} setting says. */
    METRICS
  }

  /** No token needed. */
  public static Access open() {
    return new Access(Kind.PUBLIC, Set.of());
  }

  /** Any valid token. */
  public static Access anyToken() {
    return new Access(Kind.ANY_TOKEN, Set.of());
  }

  /** The admin token only. */
  public static Access admin() {
    return new Access(Kind.ADMIN, Set.of());
  }

  /** A token of the path's namespace holding at least one of these scopes. */
  public static Access namespace(Scope first, Scope... more) {
    return new Access(Kind.NAMESPACE, EnumSet.of(first, more));
  }

  /** The metrics rule. */
  public static Access metrics() {
    return new Access(Kind.METRICS, Set.of());
  }
}
