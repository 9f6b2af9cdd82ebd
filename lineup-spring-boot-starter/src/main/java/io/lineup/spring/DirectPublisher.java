package io.lineup.spring;

/** Publishes at once, through the mode's backend. */
final class DirectPublisher implements LineupPublisher {
  private final LineupBackend backend;
  private final PayloadCodec codec;

  DirectPublisher(LineupBackend backend, PayloadCodec codec) {
    this.backend = backend;
    this.codec = codec;
  }

  @Override
  public PublishReceipt publish(String queue, Object payload, PublishOptions options) {
    return backend.publish(queue, Payloads.encode(payload, codec), options);
  }

  /** Checks the queue's name now, so a deferred publish fails in the caller, not after commit. */
  void checkQueue(String queue) {
    if ("client".equals(backend.mode())) {
      QueueNames.client(queue);
    } else {
      QueueNames.engine(queue);
    }
  }

  /** The payload's bytes, made now so a deferred publish sends what the caller gave. */
  byte[] encode(Object payload) {
    return Payloads.encode(payload, codec);
  }

  /** Publishes bytes made earlier by {@link #encode}. */
  PublishReceipt publishBytes(String queue, byte[] payload, PublishOptions options) {
    return backend.publish(queue, payload, options);
  }
}
