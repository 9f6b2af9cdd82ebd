package io.lineup.server.auth;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Namespace tokens, kept in Redis (record collection {@value #COLLECTION}) as SHA-256 hashes. Every
 * request looks its token up, with no cache, so a revocation holds on every server instance at
 * once.
 *
 * <p>A token reads {@code lu_<id>.<secret>}: the id (16 hexadecimal digits) finds the record, and
 * the hash of the whole text must match it.
 */
public final class TokenStore {
  /** The digest every hash is cloned from; never updated itself, so sharing it is safe. */
  private static final MessageDigest SHA256 = newSha256();

  /** The record collection holding the tokens. */
  public static final String COLLECTION = "tokens";

  /** Prefix of every namespace token. */
  public static final String PREFIX = "lu_";

  /** Longest token label, in characters. */
  public static final int MAX_NAME_LENGTH = 100;

  private static final SecureRandom RANDOM = new SecureRandom();
  private final RecordStore records;
  private final Clock clock;

  /** Tokens stored through this engine. */
  public TokenStore(Lineup lineup, Clock clock) {
    this.records = lineup.records(COLLECTION);
    this.clock = clock;
  }

  /** A token just made: its record and the secret text, shown to the caller once. */
  public record IssuedToken(TokenRecord record, String token) {}

  /**
   * Makes and stores a token.
   *
   * @throws io.lineup.core.model.RedisUnavailableException when Redis cannot be reached
   */
  public IssuedToken issue(String namespace, Set<Scope> scopes, int maxPriority, String name) {
    while (true) {
      byte[] idBytes = new byte[8];
      byte[] secret = new byte[32];
      RANDOM.nextBytes(idBytes);
      RANDOM.nextBytes(secret);
      String id = HexFormat.of().formatHex(idBytes);
      String token =
          PREFIX + id + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
      TokenRecord record =
          new TokenRecord(id, sha256(token), namespace, scopes, maxPriority, name, clock.millis());
      if (records.putIfAbsent(id, record.toStoredJson())) {
        return new IssuedToken(record, token);
      }
    }
  }

  /** The record of a presented token, or empty when unknown, revoked or malformed. */
  public Optional<TokenRecord> find(String token) {
    String id = idOf(token);
    if (id == null) {
      return Optional.empty();
    }
    return matching(token, records.get(id));
  }

  /** The stored record when the presented token is the one it was issued as. */
  private static Optional<TokenRecord> matching(String token, Optional<String> stored) {
    Optional<TokenRecord> record = stored.map(TokenRecord::fromStoredJson);
    if (record.isEmpty()) {
      return Optional.empty();
    }
    byte[] expected = record.get().hash().getBytes(StandardCharsets.US_ASCII);
    byte[] presented = sha256(token).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, presented) ? record : Optional.empty();
  }

  /** Every token, by id; only those of {@code namespace} when it is not null. */
  public List<TokenRecord> list(String namespace) {
    List<TokenRecord> tokens = new ArrayList<>();
    for (String text : records.all().values()) {
      TokenRecord record = TokenRecord.fromStoredJson(text);
      if (namespace == null || namespace.equals(record.namespace())) {
        tokens.add(record);
      }
    }
    return tokens;
  }

  /**
   * Whether a token id is still issued (not revoked, its namespace not deleted). A long-poll asks
   * again after its wait, since the token may have been revoked meanwhile.
   *
   * @throws io.lineup.core.model.RedisUnavailableException when Redis cannot be reached
   */
  public boolean isIssued(String id) {
    return records.get(id).isPresent();
  }

  /** Revokes a token by id; returns whether it existed. */
  public boolean revoke(String id) {
    return records.delete(id);
  }

  /** Revokes every token of a namespace; returns how many. */
  public int revokeNamespace(String namespace) {
    int revoked = 0;
    for (TokenRecord record : list(namespace)) {
      if (records.delete(record.id())) {
        revoked++;
      }
    }
    return revoked;
  }

  /** Whether a text has the shape of a token id (16 lowercase hexadecimal digits). */
  public static boolean isTokenId(String text) {
    return text != null && text.length() == 16 && text.chars().allMatch(TokenStore::isHexDigit);
  }

  private static String idOf(String token) {
    if (token == null || !token.startsWith(PREFIX)) {
      return null;
    }
    int dot = token.indexOf('.');
    if (dot < 0) {
      return null;
    }
    String id = token.substring(PREFIX.length(), dot);
    return isTokenId(id) ? id : null;
  }

  private static boolean isHexDigit(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  }

  /** Hexadecimal SHA-256 of a text's UTF-8 bytes. */
  static String sha256(String text) {
    return HexFormat.of().formatHex(freshSha256().digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * A SHA-256 digest in its initial state, cloned from one never updated: every request hashes its
   * token, and looking the algorithm up through the security providers each time was about 4 % of
   * the server's CPU per HTTP publish.
   */
  private static MessageDigest freshSha256() {
    try {
      return (MessageDigest) SHA256.clone();
    } catch (CloneNotSupportedException e) {
      return newSha256();
    }
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
