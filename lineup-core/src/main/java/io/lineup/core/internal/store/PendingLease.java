package io.lineup.core.internal.store;

import io.lineup.core.internal.store.RedisStore.Ack;
import io.lineup.core.internal.store.ScriptReplies.LeaseReply;
import io.lineup.core.model.QueueName;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A lease call already sent to Redis ({@link RedisStore#sendLease}) whose reply is read later, on
 * the caller's thread: a worker sends its next call before it unpacks the jobs of the one before,
 * so Redis has the next call waiting while the worker starts handlers.
 */
public final class PendingLease {
  private final RedisGateway gateway;
  private final QueueName queue;
  private final String nonce;
  private final int count;
  private final List<Ack> acks;
  private final CompletableFuture<Object> reply;

  PendingLease(
      RedisGateway gateway,
      QueueName queue,
      String nonce,
      int count,
      List<Ack> acks,
      CompletableFuture<Object> reply) {
    this.gateway = gateway;
    this.queue = queue;
    this.nonce = nonce;
    this.count = count;
    this.acks = List.copyOf(acks);
    this.reply = reply;
  }

  /** The most jobs the call asked for (0 = it only settles its acks). */
  public int count() {
    return count;
  }

  /** The acks the call carries, in the order of the reply's ack codes. */
  public List<Ack> acks() {
    return acks;
  }

  /** Whether the reply (or the failure) has come. */
  public boolean isDone() {
    return reply.isDone();
  }

  /** Runs {@code action} once the reply or the failure has come (at once if it has). */
  public void whenDone(Runnable action) {
    reply.whenComplete((value, error) -> action.run());
  }

  /**
   * Waits for the reply, within the command timeout, and reads it. An interrupt does not abandon
   * the call (it may have leased jobs): the reply is still waited for and the interrupt kept.
   *
   * @throws io.lineup.core.model.RedisUnavailableException when Redis does not answer in time or is
   *     gone
   * @throws io.lineup.core.model.LineupException when the script fails
   */
  public LeaseReply await() {
    return ScriptReplies.lease(queue, gateway.await(reply), nonce);
  }
}
