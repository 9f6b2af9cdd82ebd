package io.lineup.core.model;

import java.time.Instant;

/**
 * One job held by a consumer, as the queue's leased set orders them: by lease deadline, then id.
 *
 * @param id the job's id
 * @param leaseDeadline when the lease ends unless acked or extended (the leased set's score)
 */
public record LeaseEntry(String id, Instant leaseDeadline) {}
