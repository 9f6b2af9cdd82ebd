package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.model.FenceMismatchException;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import java.util.List;
import java.util.Optional;

/**
 * A room's line as one generation of the room writes to it: every ticket is published bound to the
 * generation, which the room's queue holds as its fence, so that a deleted or re-created room never
 * takes a ticket an instance meant for the room it knew before.
 */
final class BoundLine {
  private final Lineup lineup;
  private final RoomSettingsStore settings;

  BoundLine(Lineup lineup, RoomSettingsStore settings) {
    this.lineup = lineup;
    this.settings = settings;
  }

  /**
   * Publishes a ticket bound to {@code generation}. A room put before rooms set fences has none:
   * while its record (read from Redis) still shows this generation, it is given the generation as
   * its fence, only while it has none (so that a deletion's fence set meanwhile stays), and the
   * ticket is published once more.
   *
   * @throws FenceMismatchException when the room was deleted, or replaced by a later generation
   */
  PublishResult publish(RoomKey key, long generation, NewJob job) {
    try {
      return lineup.publishFenced(key.queue(), job, generation);
    } catch (FenceMismatchException refused) {
      adoptFence(key, generation, refused);
      return lineup.publishFenced(key.queue(), job, generation);
    }
  }

  /**
   * Publishes tickets bound to {@code generation}, all or none, as {@link #publish} does one.
   *
   * @throws FenceMismatchException when the room was deleted, or replaced by a later generation
   */
  List<PublishResult> publishAll(RoomKey key, long generation, List<NewJob> jobs) {
    try {
      return lineup.publishAllFenced(key.queue(), jobs, generation);
    } catch (FenceMismatchException refused) {
      adoptFence(key, generation, refused);
      return lineup.publishAllFenced(key.queue(), jobs, generation);
    }
  }

  private void adoptFence(RoomKey key, long generation, FenceMismatchException refused) {
    if (refused.current().isPresent()) {
      throw refused;
    }
    Optional<RoomRecord> stored = settings.stored(key);
    if (stored.isEmpty() || stored.get().generation() != generation) {
      throw refused;
    }
    lineup.setFenceIfAbsent(key.queue(), generation);
  }
}
