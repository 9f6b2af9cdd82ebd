package io.lineup.rooms;

/**
 * The pass of an admitted ticket.
 *
 * @param token the signed pass (a compact JWT)
 * @param id the pass id ({@code jti})
 * @param admittedAt when the ticket was admitted, epoch ms
 * @param expiresAt when the pass expires, epoch ms
 * @param renewable whether the room lets its holder renew it
 */
public record AdmittedPass(
    String token, String id, long admittedAt, long expiresAt, boolean renewable) {}
