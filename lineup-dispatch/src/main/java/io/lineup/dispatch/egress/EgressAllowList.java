package io.lineup.dispatch.egress;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The operator's egress allow list ({@code LINEUP_EGRESS_ALLOW}): the non-public addresses and
 * hosts that dispatch tasks and callbacks may reach all the same. Empty by default.
 *
 * @param entries the entries, in the order given
 */
public record EgressAllowList(List<AllowEntry> entries) {
  /** An allow list that opens nothing. */
  public static final EgressAllowList NONE = new EgressAllowList(List.of());

  public EgressAllowList {
    entries = List.copyOf(entries);
  }

  /**
   * Reads a comma list of entries ({@link AllowEntry#parse}), e.g. {@code
   * 127.0.0.1,10.20.0.0/16,[fd00::/8]:443,billing.internal:8080}; null or blank gives {@link
   * #NONE}.
   *
   * @throws IllegalArgumentException naming the entry that is neither an address, a CIDR block nor
   *     a host name, or has a port outside 1-65535
   */
  public static EgressAllowList parse(String text) {
    if (text == null || text.isBlank()) {
      return NONE;
    }
    List<AllowEntry> entries = new ArrayList<>();
    for (String entry : text.split(",")) {
      if (!entry.isBlank()) {
        entries.add(AllowEntry.parse(entry));
      }
    }
    return new EgressAllowList(entries);
  }

  /** Whether an entry allows connecting to {@code address} on {@code port} for {@code host}. */
  public boolean allows(String host, InetAddress address, int port) {
    for (AllowEntry entry : entries) {
      if (entry.allows(host, address, port)) {
        return true;
      }
    }
    return false;
  }

  /** The entries as a comma list, as they would be given. */
  @Override
  public String toString() {
    return entries.stream().map(AllowEntry::toString).collect(Collectors.joining(","));
  }
}
