package io.lineup.core.model;

import java.time.Instant;

/**
 * A dead letter.
 *
 * @param id its id
 * @param payload its payload
 * @param priority its priority
 * @param attempts deliveries it had
 * @param lastError the error of its last failure
 * @param diedAt when it ran out of attempts, Redis server time
 */
public record DeadJob(
    String id, byte[] payload, int priority, int attempts, String lastError, Instant diedAt) {}
