package io.lineup.dispatch.egress;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * The address blocks that egress refuses unless an operator allows them: every block that reaches
 * this machine, its networks or a cloud's internal services rather than the public internet. IPv4
 * addresses in IPv6 form are checked as the IPv4 address they carry ({@link
 * AddressBlock#canonical}).
 */
public final class NonPublicAddresses {
  /** A refused block and the word that names it in a refusal. */
  private record Named(AddressBlock block, String kind) {}

  private static final List<Named> BLOCKS =
      List.of(
          named("0.0.0.0/8", "unspecified"), // "this network": 0.0.0.0 connects to this machine
          named("127.0.0.0/8", "loopback"),
          named("10.0.0.0/8", "private"),
          named("172.16.0.0/12", "private"),
          named("192.168.0.0/16", "private"),
          // Shared address space (carrier-grade NAT); some clouds put internal services here.
          named("100.64.0.0/10", "shared (carrier-grade NAT)"),
          named("169.254.0.0/16", "link-local"), // cloud metadata services live here
          named("224.0.0.0/4", "multicast"),
          named("240.0.0.0/4", "reserved"), // and 255.255.255.255, the broadcast address
          named("::/128", "unspecified"),
          named("::1/128", "loopback"),
          named("fe80::/10", "link-local"),
          named("fec0::/10", "private"), // site-local, deprecated but still routed by some stacks
          named("fc00::/7", "private"), // unique local addresses
          named("ff00::/8", "multicast"));

  private NonPublicAddresses() {}

  private static Named named(String cidr, String kind) {
    return new Named(AddressBlock.parse(cidr), kind);
  }

  /**
   * What makes the address non-public.
   *
   * @return e.g. {@code loopback}, {@code private}, {@code link-local}; empty for a public address
   */
  public static Optional<String> kind(InetAddress address) {
    for (Named named : BLOCKS) {
      if (named.block().contains(address)) {
        return Optional.of(named.kind());
      }
    }
    return Optional.empty();
  }

  /** The refused blocks, for the docs and the start-up log line. */
  public static List<String> blocks() {
    return BLOCKS.stream().map(n -> n.block() + " (" + n.kind() + ")").toList();
  }
}
