package io.lineup.rooms;

/**
 * What leaving did.
 *
 * @param ticket the ticket id
 * @param previous where it stood before (now it is gone)
 */
public record Departure(String ticket, TicketStatus previous) {}
