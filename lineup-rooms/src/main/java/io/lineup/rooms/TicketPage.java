package io.lineup.rooms;

import java.util.List;

/**
 * A page of the tickets waiting in a room's line, in admission order.
 *
 * @param tickets the waiting tickets of the page
 * @param nextScore where the next page begins (the line score of this page's last entry), or null
 *     when the line ended within this page
 */
public record TicketPage(List<Ticket> tickets, Double nextScore) {}
