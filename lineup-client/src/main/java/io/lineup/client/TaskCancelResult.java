package io.lineup.client;

import io.lineup.api.resource.TaskStatus;

/**
 * What a task's cancel did.
 *
 * @param id the task's id
 * @param previousStatus the status it was cancelled in ({@link TaskStatus#QUEUED} or {@link
 *     TaskStatus#RUNNING})
 */
public record TaskCancelResult(String id, TaskStatus previousStatus) {}
