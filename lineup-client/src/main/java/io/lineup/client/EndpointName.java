package io.lineup.client;

import io.lineup.api.Names;
import java.util.Objects;

/**
 * An endpoint's name for API dispatch: a namespace (1 to 64 characters) and a name (1 to 55
 * characters), each of {@code A-Z a-z 0-9 _ . -}, neither only dots: the server's rule, {@link
 * Names}. Written {@code namespace/name}, e.g. {@code shop/images}.
 *
 * @param namespace the namespace (a token acts in one namespace)
 * @param name the endpoint's name in its namespace
 */
public record EndpointName(String namespace, String name) {
  /** Longest endpoint name, in characters (its queue's name adds {@code dispatch.}). */
  public static final int MAX_LENGTH = Names.MAX_ENDPOINT_LENGTH;

  /**
   * @throws IllegalArgumentException when a part is null or malformed
   */
  public EndpointName {
    NameChecks.check("endpoint", "namespace", namespace, Names.MAX_LENGTH);
    NameChecks.check("endpoint", "name", name, MAX_LENGTH);
  }

  /**
   * The endpoint {@code namespace/name}.
   *
   * @throws IllegalArgumentException when a part is malformed
   */
  public static EndpointName of(String namespace, String name) {
    return new EndpointName(namespace, name);
  }

  /**
   * Reads {@code namespace/name}.
   *
   * @throws IllegalArgumentException when the text is not two well-formed parts around one slash
   */
  public static EndpointName parse(String text) {
    String[] parts =
        NameChecks.split(Objects.requireNonNull(text, "text"), "an endpoint", "shop/images");
    return new EndpointName(parts[0], parts[1]);
  }

  /** {@code namespace/name}. */
  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
