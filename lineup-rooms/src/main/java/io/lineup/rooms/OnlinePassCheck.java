package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.pass.Pass;
import io.lineup.pass.PassRejectedException;
import io.lineup.pass.PassVerifier;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The online pass check ({@code POST /v1/passes/verify}) and revocations (record store {@code
 * room-revoked}): what the offline {@link PassVerifier} checks, and also that the pass was not
 * revoked and that its ticket still holds its slot.
 */
final class OnlinePassCheck {
  private final Lineup lineup;
  private final RecordStore revoked;
  private final RoomSigningKeys signingKeys;
  private final Consumer<RoomKey> roomMustExist;

  OnlinePassCheck(
      Lineup lineup,
      RecordStore revoked,
      RoomSigningKeys signingKeys,
      Consumer<RoomKey> roomMustExist) {
    this.lineup = lineup;
    this.revoked = revoked;
    this.signingKeys = signingKeys;
    this.roomMustExist = roomMustExist;
  }

  /**
   * Verifies a pass online: what {@link PassVerifier} checks, and also that it was not revoked and
   * that its ticket still holds its slot (not released, expired or abandoned).
   *
   * @param key the room the pass must be for
   * @param token the pass
   * @return the verified pass
   * @throws RoomNotFoundException for an unknown room (not one deleted)
   * @throws PassRefusedException with the reason; {@code REVOKED} for a pass of a deleted room
   */
  Pass verify(RoomKey key, String token) {
    try {
      return verifyInRoom(key, token);
    } catch (RoomNotFoundException e) {
      // The room's keys went with it (or it was never made): a deleted room's passes are revoked.
      if (signingKeys.deleted(key)) {
        throw new PassRefusedException(
            PassRejectedException.Reason.REVOKED, "the pass's room was deleted");
      }
      throw e;
    }
  }

  private Pass verifyInRoom(RoomKey key, String token) {
    roomMustExist.accept(key);
    Pass pass;
    try {
      pass = signingKeys.keySet(key, false).verifier().verify(token, key.toString());
    } catch (PassRejectedException e) {
      if (e.reason() == PassRejectedException.Reason.UNKNOWN_KEY) {
        // A key rotated on another instance within the cache's second: read the keys again.
        try {
          pass = signingKeys.keySet(key, true).verifier().verify(token, key.toString());
        } catch (PassRejectedException again) {
          throw new PassRefusedException(again.reason(), again.getMessage());
        }
      } else {
        throw new PassRefusedException(e.reason(), e.getMessage());
      }
    }
    if (revoked.get(pass.id()).isPresent()) {
      throw new PassRefusedException(PassRejectedException.Reason.REVOKED, "the pass was revoked");
    }
    Optional<JobInfo> job = lineup.get(key.queue(), pass.ticket());
    if (job.isEmpty()
        || job.get().state() != JobState.LEASED
        || !TicketReader.jtiOf(job.get()).equals(pass.id())) {
      throw new PassRefusedException(
          PassRejectedException.Reason.REVOKED, "the ticket no longer holds its slot");
    }
    return pass;
  }

  /**
   * Marks a pass revoked (kept {@link Rooms#MARKER_KEEP_MS} beyond its expiry, so the online check
   * refuses it).
   *
   * @return the pass's ticket when it still holds its slot (for the caller to free), else empty
   * @throws MalformedIdException for a malformed pass id
   * @throws PassNotFoundException when the room has no such pass
   */
  Optional<String> revoke(RoomKey key, String jti) {
    int dot = jti.indexOf('.');
    String ticket = dot < 0 ? "" : jti.substring(0, dot);
    if (!Rooms.isTicketId(ticket) || jti.length() > 40) {
      throw new MalformedIdException("jti", "a pass id is <ticket id>.<base-36 time>");
    }
    Optional<JobInfo> job = lineup.get(key.queue(), ticket);
    if (job.isEmpty() || !TicketReader.jtiOf(job.get()).equals(jti)) {
      throw new PassNotFoundException(key, jti);
    }
    long exp =
        job.get().leaseDeadline() == null
            ? System.currentTimeMillis()
            : job.get().leaseDeadline().toEpochMilli();
    revoked.put(jti, key + " " + exp);
    return job.get().state() == JobState.LEASED ? Optional.of(ticket) : Optional.empty();
  }
}
