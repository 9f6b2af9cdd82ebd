package io.lineup.core.model;

import java.util.List;

/**
 * A page of dead letters, oldest death first.
 *
 * @param total dead letters in the queue
 * @param jobs this page
 */
public record DeadPage(long total, List<DeadJob> jobs) {}
