package io.lineup.core;

import io.lineup.core.model.AckOutcome;
import io.lineup.core.model.Leases;
import java.util.List;

/**
 * What {@link Lineup#ackThenLease} gave: the outcome of each ack, in the order sent, and the jobs
 * then leased (or why none were).
 *
 * @param acks one outcome per ack
 * @param leases the lease that followed them
 */
public record AcksThenLeases(List<AckOutcome> acks, Leases leases) {
  public AcksThenLeases {
    acks = List.copyOf(acks);
  }
}
