package io.lineup.rooms;

/**
 * A single-use priority grant to make.
 *
 * @param caller who makes it (it may not grant above its own highest priority)
 * @param priority the priority a join with it gets, -255 to 255
 * @param ttlMs how long it may be used, in ms, up to {@link Rooms#MAX_GRANT_TTL_MS}
 * @param subject who alone may use it, or null for anyone
 * @param note the operator's note, or null
 */
public record GrantRequest(Caller caller, int priority, long ttlMs, String subject, String note) {}
