package io.lineup.archive;

import io.lineup.core.model.JobState;
import io.lineup.core.model.QueueName;
import java.time.Instant;

/**
 * One row of the archive: a job (or dispatch task) as it ended.
 *
 * @param queue its queue
 * @param id its id
 * @param state how it ended: DONE, DEAD, CANCELLED or EXPIRED
 * @param priority 0 to 255
 * @param attempts deliveries made
 * @param maxAttempts deliveries allowed
 * @param createdAt when it was published
 * @param dueAt when it was last due, or null
 * @param startedAt when its last lease began, or null
 * @param finishedAt when it ended
 * @param archivedAt when the archiver wrote the row
 * @param lastError the last error text, or null
 * @param result the ack's result (a task's response), or null
 * @param payload the payload of a done or dead job, or null
 */
public record ArchivedJob(
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
    Instant archivedAt,
    String lastError,
    byte[] result,
    byte[] payload) {}
