package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.pass.Pass;
import io.lineup.pass.PassRejectedException;
import io.lineup.pass.PassVerifier;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The online pass check ({@code POST /v1/passes/verify}) and revocations (record store {@code
 * room-revoked}): what the offline {@link PassVerifier} checks, and also that the pass was not
 * revoked and that its ticket still holds its slot.
 */
final class OnlinePassCheck {
  /**
   * How long after its expiry a pass still verifies online, in ms: the offline check's leeway
   * ({@link PassVerifier#DEFAULT_LEEWAY}), so both agree.
   */
  static final long LEEWAY_MS = PassVerifier.DEFAULT_LEEWAY.toMillis();

  private final Lineup lineup;
  private final RecordStore revoked;
  private final RecordStore leases;
  private final RoomSigningKeys signingKeys;
  private final Consumer<RoomKey> roomMustExist;

  OnlinePassCheck(
      Lineup lineup,
      RecordStore revoked,
      RecordStore leases,
      RoomSigningKeys signingKeys,
      Consumer<RoomKey> roomMustExist) {
    this.lineup = lineup;
    this.revoked = revoked;
    this.leases = leases;
    this.signingKeys = signingKeys;
    this.roomMustExist = roomMustExist;
  }

  /**
   * Verifies a pass online: what {@link PassVerifier} checks, and also that it was not revoked and
   * that its ticket still holds its slot (not released or abandoned) or lost it only because the
   * pass expired; the pass's lifetime ends at its lease's deadline (ms), and it verifies until
   * {@link #LEEWAY_MS} after, as offline.
   *
   * @param key the room the pass must be for
   * @param token the pass
   * @return the verified pass, its expiry the lease's deadline to the millisecond
   * @throws RoomNotFoundException for an unknown room
   * @throws PassRefusedException with the reason
   */
  Pass verify(RoomKey key, String token) {
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
    long deadline = deadlineOf(key, pass);
    long now = System.currentTimeMillis();
    if (now >= deadline + LEEWAY_MS) {
      throw new PassRefusedException(
          PassRejectedException.Reason.EXPIRED, "expired at " + Instant.ofEpochMilli(deadline));
    }
    // The pass as Lineup holds it: its expiry to the millisecond rather than the claim's seconds.
    return new Pass(
        pass.room(),
        pass.ticket(),
        pass.id(),
        pass.issuedAt(),
        Instant.ofEpochMilli(deadline),
        pass.keyId());
  }

  /**
   * When the pass's lifetime ends, epoch ms: the deadline of its ticket's lease while the ticket
   * holds its slot, or of the lease that ran out when the pass expired by itself (the slot freed by
   * the engine; a pass within the leeway after its expiry still verifies, as offline).
   *
   * @throws PassRefusedException ({@code REVOKED}) when the ticket gave its slot back, was dropped
   *     or admitted again since
   */
  private long deadlineOf(RoomKey key, Pass pass) {
    Optional<JobInfo> job = lineup.get(key.queue(), pass.ticket());
    boolean thisAdmission = job.isPresent() && TicketReader.jtiOf(job.get()).equals(pass.id());
    if (thisAdmission && job.get().state() == JobState.LEASED) {
      return job.get().leaseDeadline().toEpochMilli();
    }
    // A release (a leave, a revocation) deletes the lease's record; a lease that ran out leaves
    // it (an hour), and its ticket dead (or purged from the dead letters already).
    boolean ranOut =
        job.isEmpty()
            || (thisAdmission
                && (job.get().state() == JobState.DEAD || job.get().state() == JobState.EXPIRED));
    Optional<String> lease = ranOut ? leases.get(pass.ticket()) : Optional.empty();
    if (lease.isPresent()) {
      return Long.parseLong(lease.get().split(" ")[1]);
    }
    throw new PassRefusedException(
        PassRejectedException.Reason.REVOKED, "the ticket no longer holds its slot");
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
