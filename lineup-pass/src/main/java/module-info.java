/**
 * Waiting-room passes checked offline: compact JWTs signed with Ed25519, verified against a key set
 * (JWKS), with the JDK alone. Only {@code io.lineup.pass} exists and it is exported; the module
 * requires nothing beyond {@code java.base}.
 */
module io.lineup.pass {
  exports io.lineup.pass;
}
