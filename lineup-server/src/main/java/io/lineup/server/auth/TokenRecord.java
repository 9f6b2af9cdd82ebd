package io.lineup.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A namespace token as stored: its public id, the SHA-256 of the secret token (never the token
 * itself), its namespace, scopes, maximum priority, a label and when it was made.
 *
 * @param id the public id (also the record's key)
 * @param hash hexadecimal SHA-256 of the whole token text
 * @param namespace the namespace it acts in
 * @param scopes what it may do, in the order of {@link Scope} (publish, consume, manage)
 * @param maxPriority highest priority it may publish with
 * @param name a label for people (may be empty)
 * @param createdAt epoch milliseconds
 */
public record TokenRecord(
    String id,
    String hash,
    String namespace,
    Set<Scope> scopes,
    int maxPriority,
    String name,
    long createdAt) {

  /** A record whose scopes are kept in one order (publish, consume, manage), however given. */
  public TokenRecord {
    Set<Scope> ordered = EnumSet.noneOf(Scope.class);
    ordered.addAll(scopes);
    scopes = Collections.unmodifiableSet(ordered);
  }

  /** The principal a request with this token acts as. */
  public Principal principal() {
    return new Principal(false, namespace, scopes, maxPriority, id);
  }

  /** The stored JSON text. */
  String toStoredJson() {
    ObjectNode node = publicJson();
    node.put("hash", hash);
    return new String(Json.write(node), StandardCharsets.UTF_8);
  }

  /** The JSON the admin API shows: everything but the hash. */
  public ObjectNode publicJson() {
    ObjectNode node = Json.object();
    node.put("id", id);
    node.put("namespace", namespace);
    ArrayNode list = node.putArray("scopes");
    scopes.forEach(scope -> list.add(scope.jsonName()));
    node.put("max_priority", maxPriority);
    node.put("name", name);
    node.put("created_at", createdAt);
    return node;
  }

  /** Reads a stored record. */
  static TokenRecord fromStoredJson(String text) {
    try {
      JsonNode node = Json.parse(text.getBytes(StandardCharsets.UTF_8));
      Set<Scope> scopes = EnumSet.noneOf(Scope.class);
      node.get("scopes").forEach(scope -> scopes.add(Scope.fromJson(scope.asText())));
      return new TokenRecord(
          node.get("id").asText(),
          node.get("hash").asText(),
          node.get("namespace").asText(),
          scopes,
          node.get("max_priority").asInt(),
          node.get("name").asText(),
          node.get("created_at").asLong());
    } catch (IOException e) {
      throw new UncheckedIOException("A stored token record is not JSON", e);
    }
  }
}
