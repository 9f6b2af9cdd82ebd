package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A pass the server's online check accepted ({@code POST /v1/passes/verify}): signed by the room,
 * unexpired, not revoked, and its ticket still holds its slot.
 *
 * @param valid always true (a refused pass is answered as an error)
 * @param room the room it admits to, {@code namespace/name}
 * @param ticket the ticket it was issued for
 * @param passId its id ({@code jti})
 * @param kid the id of the key that signed it
 * @param issuedAt when it was issued, epoch milliseconds (whole seconds)
 * @param expiresAt when it expires, epoch milliseconds (whole seconds)
 */
@JsonPropertyOrder({"valid", "room", "ticket", "pass_id", "kid", "issued_at", "expires_at"})
public record VerifiedPass(
    @JsonProperty("valid") boolean valid,
    @JsonProperty("room") String room,
    @JsonProperty("ticket") String ticket,
    @JsonProperty("pass_id") String passId,
    @JsonProperty("kid") String kid,
    @JsonProperty("issued_at") long issuedAt,
    @JsonProperty("expires_at") long expiresAt) {}
