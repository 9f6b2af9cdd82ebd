package io.lineup.spring;

/**
 * What {@link LineupPublisher#publish} did.
 *
 * @param queue the queue, {@code namespace/name}
 * @param id the job's id; null when the publish was deferred to a transaction's commit and no id
 *     was given
 * @param created false when a job with this id existed already (then nothing new was written); true
 *     for a deferred publish, which has not happened yet
 * @param deferred true when the job will be published only after the current transaction commits
 *     (and never if it rolls back)
 */
public record PublishReceipt(String queue, String id, boolean created, boolean deferred) {}
