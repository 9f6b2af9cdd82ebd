package io.lineup.rooms;

/**
 * A grant in the room's log, with its use.
 *
 * @param grant the grant
 * @param usedByTicket the ticket that used it, or null while unused
 * @param usedAt when it was used, epoch ms, or null while unused
 * @param usedByToken the public id of the token that joined with it ({@code admin} for the admin
 *     token; never the token's secret), or null while unused or when used before this was recorded
 */
public record GrantLogEntry(Grant grant, String usedByTicket, Long usedAt, String usedByToken) {}
