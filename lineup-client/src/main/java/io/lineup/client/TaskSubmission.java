package io.lineup.client;

import io.lineup.api.resource.Task;

/**
 * What a submit did.
 *
 * @param created true when the task was queued now (202); false when its idempotency key matched a
 *     task submitted before (200), which {@code task} then is
 * @param task the task
 */
public record TaskSubmission(boolean created, Task task) {}
