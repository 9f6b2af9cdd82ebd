package io.lineup.rooms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.pass.Ed25519Keys;
import io.lineup.pass.Jwks;
import io.lineup.pass.PassSigner;
import io.lineup.pass.PassVerifier;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The rooms' Ed25519 signing keys (record store {@code room-keys}, the private keys in Redis only):
 * made with the room, rotated on demand, published as a JWKS, and cached on this instance for at
 * most a second, with the verifier of the online check.
 *
 * <p>A room's record names its generation ({@link RoomRecord#generation}). Deleting the room
 * replaces the record with a tombstone, {@code {"generation":<n>,"deleted_at":<ms>}}, which holds
 * no key and stays until a room of the same name is created again (with generation n + 1). Every
 * write of the record is a compare and set against what was read ({@link RecordStore#replace}), and
 * a key is only ever made where there is no record at all: so an instance whose copy of the
 * settings still shows the deleted room finds the tombstone and cannot make or rotate a key for it,
 * whenever it tries.
 */
final class RoomSigningKeys {
  /**
   * A room's signing keys: the current one and those still published, and the verifier of the
   * online check (kept while the published keys stay the same, so that it remembers the passes it
   * verified and a repeated pass skips the Ed25519 check).
   */
  record KeySet(
      String current,
      Map<String, PublicKey> publicKeys,
      PassSigner signer,
      long readAt,
      PassVerifier verifier) {}

  private final RecordStore keys;
  private final RoomIds ids;
  private final Map<RoomKey, KeySet> keyCache = new ConcurrentHashMap<>();

  RoomSigningKeys(Lineup lineup, RoomIds ids) {
    this.keys = lineup.records("room-keys");
    this.ids = ids;
  }

  /**
   * Makes the room's keys for a room being created or replaced, and says its generation: the live
   * record's when there is one (a replacement keeps its keys), else one more than the tombstone's
   * (or 1), whose new record replaces the tombstone.
   *
   * @return the room's generation
   */
  long create(RoomKey key) {
    while (true) {
      Optional<String> stored = keys.get(key.toString());
      if (stored.isPresent() && !isTombstone(stored.get())) {
        keyCache.remove(key);
        return generationOf(stored.get());
      }
      long generation = stored.map(RoomSigningKeys::generationOf).orElse(0L) + 1;
      long now = System.currentTimeMillis();
      if (keys.replace(
          key.toString(),
          stored.orElse(null),
          newKeyRecord(List.of(), generation, now).toString())) {
        keyCache.remove(key);
        return generation;
      }
      // Another instance wrote the record in between: read it again.
    }
  }

  /**
   * Deletes the room's keys, leaving the tombstone of {@code generation} (or of the stored
   * record's, when that is later): its passes no longer verify online, and no instance makes a key
   * for it again.
   */
  void delete(RoomKey key, long generation) {
    while (true) {
      Optional<String> stored = keys.get(key.toString());
      long last = Math.max(generation, stored.map(RoomSigningKeys::generationOf).orElse(0L));
      ObjectNode tombstone = StoredJson.object();
      tombstone.put("generation", last);
      tombstone.put("deleted_at", System.currentTimeMillis());
      if (stored.isPresent() && isTombstone(stored.get())) {
        break;
      }
      if (keys.replace(key.toString(), stored.orElse(null), tombstone.toString())) {
        break;
      }
    }
    keyCache.remove(key);
  }

  /** Whether the room's keys were deleted with the room (its record is a tombstone). */
  boolean deleted(RoomKey key) {
    return keys.get(key.toString()).filter(RoomSigningKeys::isTombstone).isPresent();
  }

  private static boolean isTombstone(String text) {
    return StoredJson.read(text).has("deleted_at");
  }

  /** The generation a record names; records written before generations existed are 1. */
  private static long generationOf(String text) {
    return StoredJson.read(text).path("generation").asLong(1);
  }

  /**
   * The room's signing keys, read again when older than 1 s; created on first use only where the
   * room never had a record (rooms made before keys were made with them).
   *
   * @throws RoomNotFoundException when the room's keys were deleted with it
   */
  KeySet keySet(RoomKey key, boolean fresh) {
    KeySet cached = keyCache.get(key);
    long now = System.currentTimeMillis();
    if (!fresh && cached != null && now - cached.readAt() < 1_000) {
      return cached;
    }
    Optional<String> stored = keys.get(key.toString());
    if (stored.isEmpty()) {
      // Only where there is no record at all: a deleted room's tombstone is never written over.
      keys.putIfAbsent(key.toString(), newKeyRecord(List.of(), 1, now).toString());
      stored = keys.get(key.toString());
    }
    if (stored.isEmpty() || isTombstone(stored.get())) {
      keyCache.remove(key);
      throw new RoomNotFoundException(key);
    }
    KeySet set = readKeys(stored.get(), now);
    if (cached != null && cached.publicKeys().keySet().equals(set.publicKeys().keySet())) {
      // A key id names one key for good, so the same ids are the same keys.
      set = new KeySet(set.current(), set.publicKeys(), set.signer(), now, cached.verifier());
    }
    keyCache.put(key, set);
    return set;
  }

  private KeySet readKeys(String text, long now) {
    ObjectNode record = StoredJson.read(text);
    Map<String, PublicKey> published = new LinkedHashMap<>();
    PassSigner signer = null;
    String current = record.path("current").asText();
    for (JsonNode k : record.path("keys")) {
      String kid = k.path("kid").asText();
      long retireAt = k.path("retire_at").asLong(0);
      if (retireAt != 0 && retireAt < now) {
        continue;
      }
      published.put(kid, Ed25519Keys.fromRaw(Base64.getUrlDecoder().decode(k.path("x").asText())));
      if (kid.equals(current)) {
        signer = new PassSigner(kid, Ed25519Keys.privateKeyFromText(k.path("d").asText()));
      }
    }
    if (signer == null) {
      throw new IllegalStateException("a room's key record has no current key");
    }
    // The JDK's Ed25519 (PassVerifier's default, not the opt-in tabulated engine): the online
    // check is on the trust path, and a pass verified once is remembered by this verifier.
    return new KeySet(current, published, signer, now, PassVerifier.of(published));
  }

  private ObjectNode newKeyRecord(List<JsonNode> older, long generation, long now) {
    KeyPair pair = Ed25519Keys.generate();
    String kid = ids.newId('k').substring(0, 12);
    ObjectNode record = StoredJson.object();
    record.put("generation", generation);
    record.put("current", kid);
    ArrayNode list = record.putArray("keys");
    older.forEach(list::add);
    ObjectNode k = list.addObject();
    k.put("kid", kid);
    k.put(
        "x",
        Base64.getUrlEncoder().withoutPadding().encodeToString(Ed25519Keys.raw(pair.getPublic())));
    // The private key is kept only here, in Redis; no answer and no log line carries it.
    k.put("d", Ed25519Keys.privateKeyText(pair.getPrivate()));
    k.put("created_at", now);
    return record;
  }

  /**
   * Makes a new signing key current. The old one stays published until the passes it signed can
   * have expired (the pass lifetime plus {@link Rooms#KEY_OVERLAP_MS}), then is dropped. The new
   * record replaces the one read only if nobody wrote it in between (else it is read again), and
   * only while it is the keys of the caller's generation of the room.
   *
   * @param generation the generation of the room as the caller knows it
   * @return the room's published key ids after the rotation
   * @throws RoomNotFoundException when the room was deleted, or replaced by a later generation
   */
  KeyRotation rotate(RoomKey key, RoomSpec spec, long generation) {
    while (true) {
      long now = System.currentTimeMillis();
      String text = keys.get(key.toString()).orElseThrow(() -> new RoomNotFoundException(key));
      if (isTombstone(text) || generationOf(text) != generation) {
        throw new RoomNotFoundException(key);
      }
      ObjectNode record = StoredJson.read(text);
      String current = record.path("current").asText();
      List<JsonNode> kept = new ArrayList<>();
      for (JsonNode k : record.path("keys")) {
        ObjectNode copy = (ObjectNode) k.deepCopy();
        long retireAt = copy.path("retire_at").asLong(0);
        if (copy.path("kid").asText().equals(current)) {
          copy.put("retire_at", now + spec.passTtlMs() + Rooms.KEY_OVERLAP_MS);
        } else if (retireAt != 0 && retireAt < now) {
          continue;
        }
        kept.add(copy);
      }
      ObjectNode fresh = newKeyRecord(kept, generation, now);
      if (keys.replace(key.toString(), text, fresh.toString())) {
        KeySet set = keySet(key, true);
        return new KeyRotation(set.current(), List.copyOf(set.publicKeys().keySet()));
      }
    }
  }

  /** The room's public keys as a JWKS. */
  String jwks(RoomKey key) {
    return Jwks.toJson(keySet(key, false).publicKeys());
  }
}
