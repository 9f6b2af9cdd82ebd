package io.lineup.archive;

import java.util.List;

/**
 * A page of the archive, newest end first.
 *
 * @param jobs the rows
 * @param nextCursor where the next page starts (give it as {@link ArchiveQuery#cursor()}), or null
 *     when this is the last page
 */
public record ArchivePage(List<ArchivedJob> jobs, String nextCursor) {}
