package io.lineup.dispatch;

/** No endpoint of this name in its namespace. */
public final class EndpointNotFoundException extends DispatchException {
  private final EndpointKey key;

  /**
   * @param key the endpoint asked for
   */
  public EndpointNotFoundException(EndpointKey key) {
    super("no endpoint " + key.name() + " in namespace " + key.namespace());
    this.key = key;
  }

  /** The endpoint asked for. */
  public EndpointKey key() {
    return key;
  }
}
