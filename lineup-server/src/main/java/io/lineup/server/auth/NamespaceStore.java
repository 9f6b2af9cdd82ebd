package io.lineup.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The namespaces tokens can be issued for, kept in Redis (record collection {@value #COLLECTION}).
 * The admin token may use any namespace without registering it; a namespace token can only be
 * issued for a registered one.
 */
public final class NamespaceStore {
  /** The record collection holding the namespaces. */
  public static final String COLLECTION = "namespaces";

  private final RecordStore records;
  private final Clock clock;

  /** Namespaces stored through this engine. */
  public NamespaceStore(Lineup lineup, Clock clock) {
    this.records = lineup.records(COLLECTION);
    this.clock = clock;
  }

  /** A registered namespace. */
  public record Namespace(String name, long createdAt) {
    /** Its JSON form. */
    public ObjectNode json() {
      ObjectNode node = Json.object();
      node.put("name", name);
      node.put("created_at", createdAt);
      return node;
    }
  }

  /** Registers a namespace; empty when it exists already. */
  public java.util.Optional<Namespace> create(String name) {
    Namespace namespace = new Namespace(name, clock.millis());
    boolean stored =
        records.putIfAbsent(name, new String(Json.write(namespace.json()), StandardCharsets.UTF_8));
    return stored ? java.util.Optional.of(namespace) : java.util.Optional.empty();
  }

  /** Whether a namespace is registered. */
  public boolean exists(String name) {
    return records.get(name).isPresent();
  }

  /** Every registered namespace, by name. */
  public List<Namespace> list() {
    List<Namespace> namespaces = new ArrayList<>();
    for (Map.Entry<String, String> entry : records.all().entrySet()) {
      namespaces.add(read(entry.getValue()));
    }
    return namespaces;
  }

  /** Removes a namespace record; returns whether it existed. */
  public boolean delete(String name) {
    return records.delete(name);
  }

  private static Namespace read(String text) {
    try {
      JsonNode node = Json.parse(text.getBytes(StandardCharsets.UTF_8));
      return new Namespace(node.get("name").asText(), node.get("created_at").asLong());
    } catch (IOException e) {
      throw new UncheckedIOException("A stored namespace record is not JSON", e);
    }
  }
}
