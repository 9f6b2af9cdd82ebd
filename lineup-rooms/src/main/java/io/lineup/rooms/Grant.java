package io.lineup.rooms;

/**
 * A single-use priority grant, as made.
 *
 * @param id the grant id (what a join presents)
 * @param room the room it is for
 * @param priority the priority a join with it gets
 * @param subject who alone may use it, or null for anyone
 * @param note the operator's note, or null
 * @param createdAt when it was made, epoch ms
 * @param expiresAt when it stops being usable, epoch ms
 * @param createdBy the id of whoever made it
 */
public record Grant(
    String id,
    RoomKey room,
    int priority,
    String subject,
    String note,
    long createdAt,
    long expiresAt,
    String createdBy) {}
