package io.lineup.archive;

import io.lineup.core.model.JobState;
import java.time.Instant;

/**
 * What {@link ArchiveReader#list} lists: the rows of one namespace, newest end first, optionally of
 * one queue and one state and within a time range of their end.
 *
 * @param namespace the namespace (required)
 * @param queue the queue name within it, or null for all
 * @param state the end state, or null for all
 * @param finishedFrom earliest end time included, or null
 * @param finishedBefore end times from this one on are left out, or null
 * @param cursor where the previous page stopped ({@link ArchivePage#nextCursor()}), or null
 * @param limit most rows, 1 to {@value ArchiveReader#MAX_PAGE}
 */
public record ArchiveQuery(
    String namespace,
    String queue,
    JobState state,
    Instant finishedFrom,
    Instant finishedBefore,
    String cursor,
    int limit) {}
