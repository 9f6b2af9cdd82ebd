package io.lineup.core.model;

import java.time.Instant;

/**
 * What a publish did.
 *
 * @param id the job's id (generated or caller-given; for a duplicate, the first job's id)
 * @param created false when the id or unique key matched an existing job, which is returned instead
 * @param state the job's state now; null when a unique key matched a job whose record is gone
 * @param dueAt when the job is (or was) due, Redis server time
 * @param position the job's place in the ready line (0 = next), or -1 when it is not ready
 */
public record PublishResult(
    String id, boolean created, JobState state, Instant dueAt, long position) {}
