package io.lineup.dispatch.egress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which addresses dispatch tasks and callbacks may connect to. Public addresses are allowed; a
 * non-public one ({@link NonPublicAddresses}: loopback, private, link-local, shared, unspecified,
 * multicast, reserved, and IPv4 addresses of these kinds in IPv6 form) only when the operator's
 * {@link EgressAllowList} names it. This server's own Redis (its ports on the Redis hosts'
 * addresses and on loopback) is refused whatever the allow list says.
 *
 * <p>The policy is applied to the resolved address of every connection the egress client opens
 * ({@link CheckedResolver}), and to base URLs and callback prefixes when they are registered
 * ({@link #checkRegistration}). Thread-safe and immutable.
 */
public final class EgressPolicy {
  private final EgressAllowList allow;
  private final Set<Integer> redisPorts;
  private final List<InetAddress> redisAddresses;
  private final List<InetSocketAddress> redisServers;

  /**
   * A policy; the Redis hosts are resolved now (a host that does not resolve is refused by port on
   * loopback only).
   *
   * @param allow what the operator allows beyond public addresses
   * @param redisServers this server's Redis servers ({@link RedisServers#of}), never reachable
   */
  public EgressPolicy(EgressAllowList allow, List<InetSocketAddress> redisServers) {
    this.allow = allow;
    this.redisServers = List.copyOf(redisServers);
    this.redisPorts =
        redisServers.stream()
            .map(InetSocketAddress::getPort)
            .collect(Collectors.toUnmodifiableSet());
    List<InetAddress> addresses = new ArrayList<>();
    for (InetSocketAddress server : redisServers) {
      try {
        for (InetAddress address : resolve(server.getHostString())) {
          addresses.add(AddressBlock.canonical(address));
        }
      } catch (UnknownHostException unknown) {
        // Not known now: the loopback rule below still covers a Redis on this machine.
      }
    }
    this.redisAddresses = List.copyOf(addresses);
  }

  /** The operator's allow list. */
  public EgressAllowList allowList() {
    return allow;
  }

  /**
   * Why a connection is refused.
   *
   * @param host the URL's host (a name or an address literal), for allow-list entries by name
   * @param address the address it resolved to
   * @param port the port
   * @return the reason, e.g. {@code 10.0.0.5 is private}; empty when the connection may go
   */
  public Optional<String> refusal(String host, InetAddress address, int port) {
    InetAddress plain = AddressBlock.canonical(address);
    Optional<String> kind = NonPublicAddresses.kind(plain);
    if (redisPorts.contains(port)
        && (redisAddresses.contains(plain)
            || kind.filter(k -> k.equals("loopback") || k.equals("unspecified")).isPresent())) {
      return Optional.of(plain.getHostAddress() + ":" + port + " may be this server's Redis");
    }
    if (kind.isPresent() && !allow.allows(host, plain, port)) {
      return Optional.of(plain.getHostAddress() + " is " + kind.get());
    }
    return Optional.empty();
  }

  /**
   * Checks a URL as it is registered (an endpoint's base URL, a callback prefix): refused when its
   * host is an address the policy refuses, or a name whose every address, resolved now, is refused.
   * A name that does not resolve now passes; connections are checked again when they open.
   *
   * @param url an http or https URL with a host
   * @throws EgressRefusedException saying why
   */
  public void checkRegistration(URI url) throws EgressRefusedException {
    String host = url.getHost();
    if (host == null) {
      return;
    }
    int port =
        url.getPort() >= 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
    List<InetAddress> addresses;
    try {
      addresses = resolve(host);
    } catch (UnknownHostException notNow) {
      return;
    }
    String first = null;
    for (InetAddress address : addresses) {
      Optional<String> refused = refusal(host, address, port);
      if (refused.isEmpty()) {
        return;
      }
      first = first == null ? refused.get() : first;
    }
    if (first != null) {
      String name = NumericHost.parse(host).isPresent() ? "" : host + ": ";
      throw new EgressRefusedException(name + first);
    }
  }

  /**
   * The addresses of a host: a numeric host as resolvers read it ({@link NumericHost}), without a
   * lookup; a name by the system resolver.
   *
   * @throws UnknownHostException when the name does not resolve
   */
  public static List<InetAddress> resolve(String host) throws UnknownHostException {
    Optional<InetAddress> numeric = NumericHost.parse(host);
    if (numeric.isPresent()) {
      return List.of(numeric.get());
    }
    return List.of(InetAddress.getAllByName(host));
  }

  /** What egress may reach, for the start-up log line. */
  public String describe() {
    String redis =
        redisServers.stream()
            .map(s -> s.getHostString() + ":" + s.getPort())
            .collect(Collectors.joining(", "));
    return "public addresses"
        + (allow.entries().isEmpty() ? " only" : " and " + allow)
        + (redis.isEmpty() ? "" : "; never this server's Redis (" + redis + ")");
  }
}
