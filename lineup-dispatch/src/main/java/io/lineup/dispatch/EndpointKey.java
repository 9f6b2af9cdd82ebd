package io.lineup.dispatch;

import io.lineup.api.Names;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.QueueName;

/**
 * Names one endpoint: its namespace and name, and the engine queue that holds its tasks ({@code
 * dispatch.<name>} in the namespace).
 *
 * @param namespace the namespace
 * @param name the endpoint's name
 */
public record EndpointKey(String namespace, String name) {
  /** The prefix of an endpoint's queue name. */
  public static final String QUEUE_PREFIX = Names.ENDPOINT_QUEUE_PREFIX;

  /** Longest endpoint name: the queue name's limit less the prefix. */
  public static final int MAX_NAME_LENGTH = Names.MAX_ENDPOINT_LENGTH;

  /**
   * @throws InvalidArgumentException naming {@code endpoint} when the name is malformed
   */
  public EndpointKey {
    if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
      throw new InvalidArgumentException(
          "endpoint", "must be 1 to " + MAX_NAME_LENGTH + " characters of " + Names.CHARACTERS);
    }
    QueueName.of(namespace, QUEUE_PREFIX + name);
    if (Names.isOnlyDots(name)) {
      throw new InvalidArgumentException("endpoint", "must not be made only of dots");
    }
  }

  /** The queue holding the endpoint's tasks. */
  public QueueName queue() {
    return QueueName.of(namespace, QUEUE_PREFIX + name);
  }

  /** The record id of the endpoint. */
  String recordId() {
    return namespace + "/" + name;
  }

  /** The key of a record id ({@code namespace/name}). */
  static EndpointKey ofRecordId(String id) {
    int slash = id.indexOf('/');
    return new EndpointKey(id.substring(0, slash), id.substring(slash + 1));
  }

  String taskKey(String id) {
    return recordId() + "/" + id;
  }

  @Override
  public String toString() {
    return recordId();
  }
}
