package io.lineup.pass;

import java.time.Instant;
import java.util.Objects;

/**
 * The claims of a waiting-room pass, once its signature and times are checked.
 *
 * @param room the room it admits to ({@code aud}), as {@code namespace/room}
 * @param ticket the ticket it was issued for ({@code sub})
 * @param id the pass's own id ({@code jti}), unique per admission; revocations name it
 * @param issuedAt when it was issued ({@code iat}, whole seconds)
 * @param expiresAt when it stops being valid ({@code exp}, whole seconds)
 * @param keyId the id of the key that signed it ({@code kid} of the header)
 */
public record Pass(
    String room, String ticket, String id, Instant issuedAt, Instant expiresAt, String keyId) {
  /**
   * @throws NullPointerException when a field is null
   */
  public Pass {
    Objects.requireNonNull(room, "room");
    Objects.requireNonNull(ticket, "ticket");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(issuedAt, "issuedAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(keyId, "keyId");
  }
}
