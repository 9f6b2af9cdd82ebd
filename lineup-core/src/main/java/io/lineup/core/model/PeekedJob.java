package io.lineup.core.model;

import java.time.Instant;

/**
 * A ready job seen without leasing it.
 *
 * @param id its id
 * @param payload its payload
 * @param priority its priority
 * @param attempts deliveries so far
 * @param createdAt when published, Redis server time
 */
public record PeekedJob(String id, byte[] payload, int priority, int attempts, Instant createdAt) {}
