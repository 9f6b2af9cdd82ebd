package io.lineup.rooms;

/**
 * A room's settings and counts.
 *
 * @param key the room
 * @param spec its settings
 * @param createdAt when it was created, epoch ms
 * @param updatedAt when its settings last changed, epoch ms
 * @param waiting tickets in line
 * @param active passes valid now
 * @param preQueue tickets held until the event start
 */
public record RoomInfo(
    RoomKey key,
    RoomSpec spec,
    long createdAt,
    long updatedAt,
    long waiting,
    long active,
    long preQueue) {}
