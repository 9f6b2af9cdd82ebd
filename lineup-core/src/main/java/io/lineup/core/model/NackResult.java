package io.lineup.core.model;

import java.time.Instant;

/**
 * Where a failed job went.
 *
 * @param state {@link JobState#DELAYED} or {@link JobState#READY} for a retry, {@link
 *     JobState#DEAD} when out of attempts
 * @param dueAt when the retry is due (for DEAD: when it died), Redis server time
 */
public record NackResult(JobState state, Instant dueAt) {}
