package io.lineup.rooms;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.FenceMismatchException;
import io.lineup.core.model.NewJob;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pre-queue of a room with an event start: tickets that join before it are held beside the line
 * (record store {@code room-pre:<room>}) and put into it at the start, shuffled for method {@code
 * random}, in order of joining otherwise.
 */
final class PreQueue {
  private final Lineup lineup;
  private final RoomSettingsStore settings;
  private final BoundLine line;
  private final SecureRandom random = new SecureRandom();

  PreQueue(Lineup lineup, RoomSettingsStore settings) {
    this.lineup = lineup;
    this.settings = settings;
    this.line = new BoundLine(lineup, settings);
  }

  /** The record store of the room's pre-queue: ticket id to its join payload. */
  RecordStore of(RoomKey key) {
    return lineup.records(name(key));
  }

  private static String name(RoomKey key) {
    return "room-pre:" + key;
  }

  /** How many tickets wait in the room's pre-queue. */
  int size(RoomKey key) {
    return of(key).all().size();
  }

  /**
   * At the event start, puts the pre-queue into the line: shuffled for method random, in order of
   * joining otherwise. Every instance may do it; a ticket's id makes its publish idempotent. The
   * tickets are published bound to the room's generation: a room deleted or re-created meanwhile
   * takes none of them (its deletion ends them).
   */
  void open(RoomKey key, RoomSpec spec, long now) {
    if (spec.eventStartAt() == 0 || now < spec.eventStartAt()) {
      return;
    }
    RecordStore pre = of(key);
    Map<String, String> waiting = pre.all();
    if (waiting.isEmpty()) {
      return;
    }
    Optional<RoomRecord> room = settings.stored(key);
    if (room.isEmpty()) {
      return; // Deleted since this instance's copy was read: the deletion ends the tickets.
    }
    long generation = room.get().generation();
    List<Map.Entry<String, String>> order = new ArrayList<>(waiting.entrySet());
    if (spec.method() == RoomSpec.Method.RANDOM) {
      Collections.shuffle(order, random);
    } else {
      order.sort((a, b) -> Long.compare(joinedAt(a.getValue()), joinedAt(b.getValue())));
    }
    for (int from = 0; from < order.size(); from += 1000) {
      List<NewJob> jobs = new ArrayList<>();
      for (var e : order.subList(from, Math.min(order.size(), from + 1000))) {
        ObjectNode p = StoredJson.read(e.getValue());
        jobs.add(NewJob.ofText(e.getValue()).id(e.getKey()).priority(p.path("priority").asInt()));
      }
      try {
        line.publishAll(key, generation, jobs);
      } catch (FenceMismatchException replaced) {
        return; // Deleted or re-created meanwhile: these tickets belong to a room that has ended.
      }
    }
    for (var e : order) {
      pre.delete(e.getKey());
    }
  }

  private static long joinedAt(String payload) {
    return StoredJson.read(payload).path("joined_at").asLong();
  }
}
