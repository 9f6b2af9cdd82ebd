package io.lineup.spring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Defers a publish made inside an active Spring transaction to just after its commit, and drops it
 * on rollback. The payload is encoded and the queue checked at the call, so mistakes surface in the
 * caller; only the write waits. A publish that fails after the commit cannot undo the commit: it is
 * logged (queue and id, never the payload) and the caller has already moved on. Where that window
 * matters, publish with an id from an outbox table instead (docs/spring.md).
 */
final class AfterCommitPublisher implements LineupPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(AfterCommitPublisher.class);

  private final DirectPublisher direct;

  AfterCommitPublisher(DirectPublisher direct) {
    this.direct = direct;
  }

  @Override
  public PublishReceipt publish(String queue, Object payload, PublishOptions options) {
    if (!TransactionSynchronizationManager.isSynchronizationActive()
        || !TransactionSynchronizationManager.isActualTransactionActive()) {
      return direct.publish(queue, payload, options);
    }
    direct.checkQueue(queue);
    byte[] bytes = direct.encode(payload);
    TransactionSynchronizationManager.registerSynchronization(
        new TransactionSynchronization() {
          @Override
          public void afterCommit() {
            try {
              direct.publishBytes(queue, bytes, options);
            } catch (RuntimeException e) {
              LOG.error(
                  "Publishing job {} to {} after the transaction's commit failed: {}",
                  options.id() == null ? "(new id)" : options.id(),
                  queue,
                  e.toString());
              throw e;
            }
          }
        });
    return new PublishReceipt(queue, options.id(), true, true);
  }

  /** Wraps the publisher; a separate method so the class is loaded only when spring-tx is. */
  static LineupPublisher wrap(DirectPublisher direct) {
    return new AfterCommitPublisher(direct);
  }
}
