package io.lineup.client;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An endpoint's name for API dispatch: a namespace (1 to 64 characters) and a name (1 to 55
 * characters), each of {@code A-Z a-z 0-9 _ . -}, the name not only dots. Written {@code
 * namespace/name}, e.g. {@code shop/images}.
 *
 * @param namespace the namespace (a token acts in one namespace)
 * @param name the endpoint's name in its namespace
 */
public record EndpointName(String namespace, String name) {
  /** Longest endpoint name, in characters (its queue's name adds {@code dispatch.}). */
  public static final int MAX_LENGTH = 55;

  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9_.\\-]{1,64}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,55}");

  /**
   * @throws IllegalArgumentException when a part is null or malformed
   */
  public EndpointName {
    Names.check("endpoint", "namespace", namespace, NAMESPACE, "1-64");
    Names.check("endpoint", "name", name, NAME, "1-55");
    Names.notOnlyDots("endpoint", name);
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
        Names.split(Objects.requireNonNull(text, "text"), "an endpoint", "shop/images");
    return new EndpointName(parts[0], parts[1]);
  }

  /** {@code namespace/name}. */
  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
