package io.lineup.core.model;

import java.time.Instant;

/**
 * One ended job as the queue's archive outbox holds it: everything the archive keeps of it, written
 * by the script call that ended the job (see {@link io.lineup.core.ArchiveOutbox}).
 *
 * @param entryId the id ({@code <ms>-<seq>}) of the outbox stream entry that holds it, with the
 *     other jobs that ended in the same script call; acknowledging it acknowledges them all
 * @param entryJobs how many jobs that stream entry holds (this one included)
 * @param queue the job's queue
 * @param id the job id
 * @param state how it ended: {@link JobState#DONE}, {@link JobState#DEAD}, {@link
 *     JobState#CANCELLED} or {@link JobState#EXPIRED}
 * @param priority its priority, 0 to 255
 * @param attempts deliveries made
 * @param maxAttempts deliveries allowed (the queue's setting when the job named none)
 * @param createdAt when it was published
 * @param dueAt when it was last due (null when it never waited for a time)
 * @param startedAt when its last lease began (null when never leased)
 * @param finishedAt when it ended, by the engine's clock
 * @param lastError the last nack's error text (null when none)
 * @param result the ack's result (null when none)
 * @param payload the payload of a done or dead job (null for cancelled and expired jobs, whose
 *     records drop it too)
 */
public record OutboxEntry(
    String entryId,
    int entryJobs,
    QueueName queue,
    String id,
    JobState state,
    int priority,
    int attempts,
    int maxAttempts,
    Instant createdAt,
    Instant dueAt,
    Instant startedAt,
    Instant finishedAt,
    String lastError,
    byte[] result,
    byte[] payload) {}
