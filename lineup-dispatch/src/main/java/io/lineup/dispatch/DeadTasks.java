package io.lineup.dispatch;

import java.util.List;

/**
 * A page of an endpoint's tasks that ran out of attempts, oldest death first.
 *
 * @param endpoint the endpoint
 * @param total how many it has in all
 * @param tasks this page's tasks
 */
public record DeadTasks(EndpointKey endpoint, long total, List<Task> tasks) {}
