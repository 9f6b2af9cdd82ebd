package io.lineup.dispatch.egress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * The egress client's resolver: resolves a host (numeric forms as {@link NumericHost} reads them,
 * names by the system resolver, on a virtual thread), drops every address the {@link EgressPolicy}
 * refuses, and hands the client only the checked ones to connect to. Since the check is made on the
 * very addresses connected to, each time a connection opens, a name that resolves to a public
 * address at registration and to a private one later (DNS rebinding) is refused then. When no
 * address is left, the connection fails with an {@link EgressRefusedException} and nothing is sent.
 */
public final class CheckedResolver implements SocketAddressResolver {
  private final EgressPolicy policy;
  private final HostLookup lookup;

  /** How a host's addresses are found; the system resolver by default, another one in tests. */
  @FunctionalInterface
  public interface HostLookup {
    /**
     * @throws UnknownHostException when the host does not resolve
     */
    List<InetAddress> addresses(String host) throws UnknownHostException;
  }

  /** A resolver by the system's DNS. */
  public CheckedResolver(EgressPolicy policy) {
    this(policy, EgressPolicy::resolve);
  }

  /**
   * @param lookup finds a host's addresses (numeric hosts are read without it)
   */
  public CheckedResolver(EgressPolicy policy, HostLookup lookup) {
    this.policy = policy;
    this.lookup = lookup;
  }

  @Override
  public void resolve(
      String host,
      int port,
      Map<String, Object> context,
      Promise<List<InetSocketAddress>> promise) {
    if (NumericHost.parse(bare(host)).isPresent()) {
      // An address needs no lookup: checked here, without a thread hop before connecting.
      complete(host, port, promise);
      return;
    }
    // Lookups block: a virtual thread each, so slow DNS holds no client thread.
    Thread.ofVirtual().name("lineup-egress-resolve").start(() -> complete(host, port, promise));
  }

  private void complete(String host, int port, Promise<List<InetSocketAddress>> promise) {
    List<InetSocketAddress> addresses;
    try {
      addresses = checked(host, port);
    } catch (Throwable failure) {
      promise.failed(failure);
      return;
    }
    promise.succeeded(addresses);
  }

  private static String bare(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /**
   * The allowed addresses of a host.
   *
   * @throws EgressRefusedException when every address is refused (the first reason)
   * @throws UnknownHostException when the host does not resolve
   */
  List<InetSocketAddress> checked(String host, int port)
      throws EgressRefusedException, UnknownHostException {
    String bare = bare(host);
    Optional<InetAddress> numeric = NumericHost.parse(bare);
    List<InetAddress> addresses =
        numeric.isPresent() ? List.of(numeric.get()) : lookup.addresses(bare);
    List<InetSocketAddress> allowed = new ArrayList<>();
    String refused = null;
    for (InetAddress address : addresses) {
      Optional<String> reason = policy.refusal(bare, address, port);
      if (reason.isEmpty()) {
        allowed.add(new InetSocketAddress(address, port));
      } else if (refused == null) {
        refused = reason.get();
      }
    }
    if (allowed.isEmpty()) {
      if (refused == null) {
        throw new UnknownHostException(host + ": no address");
      }
      throw new EgressRefusedException(refused);
    }
    return allowed;
  }
}
