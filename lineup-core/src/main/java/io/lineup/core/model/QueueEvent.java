package io.lineup.core.model;

import java.time.Instant;
import java.util.List;

/**
 * One entry of a queue's event stream: the jobs one script call moved into a state.
 *
 * @param streamId the stream entry id; pass it to {@link io.lineup.core.Lineup#events} to read what
 *     came after
 * @param kind published, ready, leased, acked, retried, dead, expired, cancelled, respawned or
 *     purged
 * @param count how many jobs
 * @param jobIds their ids; for batches over 100 jobs only the first and the last
 * @param at when, by the engine's clock
 */
public record QueueEvent(
    String streamId, String kind, int count, List<String> jobIds, Instant at) {}
