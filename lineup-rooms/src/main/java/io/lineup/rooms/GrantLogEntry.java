package io.lineup.rooms;

/**
 * A grant in the room's log, with its use.
 *
 * @param grant the grant
 * @param usedByTicket the ticket that used it, or null while unused
 * @param usedAt when it was used, epoch ms, or null while unused
 */
public record GrantLogEntry(Grant grant, String usedByTicket, Long usedAt) {}
