package io.lineup.server.room;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.ErrorCode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.pass.Pass;
import io.lineup.pass.PassRejectedException;
import io.lineup.pass.PassVerifier;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.util.Optional;
import java.util.Set;
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

  /** The fields {@code POST /v1/passes/verify} takes. */
  static final Set<String> VERIFY_FIELDS = Set.of("pass", "room");

  /**
   * Verifies a pass online: what {@link PassVerifier} checks, and also that it was not revoked and
   * that its ticket still holds its slot (not released, expired or abandoned).
   *
   * @throws ApiException 400 for a malformed body or room, 403 when the token may not act in the
   *     room's namespace, 404 for an unknown room, 403 {@code pass_rejected} with the reason
   */
  ObjectNode verify(JsonNode body, Principal principal) {
    JsonFields f = JsonFields.of(body, "", VERIFY_FIELDS);
    String token = f.requiredText("pass", PassVerifier.MAX_TOKEN_LENGTH);
    String roomText = f.requiredText("room", 130);
    RoomKey key;
    try {
      key = RoomKey.parse(roomText);
    } catch (io.lineup.core.model.InvalidArgumentException e) {
      throw ApiException.invalidField("room", "must be namespace/room: " + e.reason());
    }
    if (!principal.covers(key.namespace())) {
      throw ApiException.forbidden("the token may not act in namespace " + key.namespace());
    }
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
          throw rejected(again.reason(), again.getMessage());
        }
      } else {
        throw rejected(e.reason(), e.getMessage());
      }
    }
    if (revoked.get(pass.id()).isPresent()) {
      throw rejected(PassRejectedException.Reason.REVOKED, "the pass was revoked");
    }
    Optional<JobInfo> job = lineup.get(key.queue(), pass.ticket());
    if (job.isEmpty()
        || job.get().state() != JobState.LEASED
        || !TicketViews.jtiOf(job.get()).equals(pass.id())) {
      throw rejected(PassRejectedException.Reason.REVOKED, "the ticket no longer holds its slot");
    }
    ObjectNode answer = Json.object();
    answer.put("valid", true);
    answer.put("room", pass.room());
    answer.put("ticket", pass.ticket());
    answer.put("pass_id", pass.id());
    answer.put("kid", pass.keyId());
    answer.put("issued_at", pass.issuedAt().toEpochMilli());
    answer.put("expires_at", pass.expiresAt().toEpochMilli());
    return answer;
  }

  private static ApiException rejected(PassRejectedException.Reason reason, String message) {
    String code = reason.name().toLowerCase(java.util.Locale.ROOT);
    if (reason == PassRejectedException.Reason.MALFORMED) {
      return ApiException.invalidField("pass", "not a pass: " + message).with("reason", code);
    }
    return new ApiException(ErrorCode.PASS_REJECTED, "pass", message).with("reason", code);
  }

  /**
   * Marks a pass revoked (kept {@link RoomService#MARKER_KEEP_MS} beyond its expiry, so the online
   * check refuses it).
   *
   * @return the pass's ticket when it still holds its slot (for the caller to free), else empty
   * @throws ApiException 400 for a malformed pass id, 404 when the room has no such pass
   */
  Optional<String> revoke(RoomKey key, String jti) {
    int dot = jti.indexOf('.');
    String ticket = dot < 0 ? "" : jti.substring(0, dot);
    if (!RoomService.isTicketId(ticket) || jti.length() > 40) {
      throw new ApiException(
          ErrorCode.INVALID_NAME, "jti", "a pass id is <ticket id>.<base-36 time>");
    }
    Optional<JobInfo> job = lineup.get(key.queue(), ticket);
    if (job.isEmpty() || !TicketViews.jtiOf(job.get()).equals(jti)) {
      throw ApiException.notFound("no pass " + jti + " in room " + key);
    }
    long exp =
        job.get().leaseDeadline() == null
            ? System.currentTimeMillis()
            : job.get().leaseDeadline().toEpochMilli();
    revoked.put(jti, key + " " + exp);
    return job.get().state() == JobState.LEASED ? Optional.of(ticket) : Optional.empty();
  }
}
