package io.lineup.dispatch.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EgressPolicyTest {
  private static final EgressPolicy DEFAULT = new EgressPolicy(EgressAllowList.NONE, List.of());

  private static InetAddress address(String text) {
    return NumericHost.parse(text).orElseThrow();
  }

  @ParameterizedTest
  @CsvSource({
    "127.0.0.1, loopback",
    "127.255.255.254, loopback",
    "::1, loopback",
    "10.0.0.1, private",
    "10.255.255.255, private",
    "172.16.0.1, private",
    "172.31.255.255, private",
    "192.168.1.1, private",
    "fc00::1, private",
    "fd12:3456::1, private",
    "fec0::1, private",
    "100.64.0.1, shared (carrier-grade NAT)",
    "100.127.255.255, shared (carrier-grade NAT)",
    "169.254.169.254, link-local",
    "fe80::1, link-local",
    "febf::1, link-local",
    "0.0.0.0, unspecified",
    "0.1.2.3, unspecified",
    "::, unspecified",
    "224.0.0.1, multicast",
    "239.255.255.250, multicast",
    "ff02::1, multicast",
    "240.0.0.1, reserved",
    "255.255.255.255, reserved",
    // IPv4 in IPv6 form: mapped, compatible and NAT64, each checked as the IPv4 address.
    "::ffff:169.254.169.254, link-local",
    "::ffff:a9fe:a9fe, link-local",
    "::ffff:10.0.0.1, private",
    "::127.0.0.1, loopback",
    "::ffff:0.0.0.0, unspecified",
    "64:ff9b::a9fe:a9fe, link-local",
    "64:ff9b::7f00:1, loopback"
  })
  void everyNonPublicRangeIsRefusedByDefaultNamingItsKind(String text, String kind) {
    InetAddress address = address(text);
    assertThat(DEFAULT.refusal(text, address, 80))
        .hasValueSatisfying(reason -> assertThat(reason).endsWith(" is " + kind));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "8.8.8.8",
        "1.1.1.1",
        "172.15.255.255",
        "172.32.0.1",
        "100.63.255.255",
        "100.128.0.1",
        "169.253.255.255",
        "11.0.0.1",
        "223.255.255.255",
        "2606:4700:4700::1111",
        "2001:db8::1",
        "::ffff:8.8.8.8",
        "64:ff9b::808:808"
      })
  void publicAddressesAreAllowed(String text) {
    assertThat(DEFAULT.refusal(text, address(text), 443)).isEmpty();
  }

  @Test
  void anAllowListOpensTheBlocksAndHostsItNames() {
    EgressPolicy policy =
        new EgressPolicy(
            EgressAllowList.parse("127.0.0.1, 10.20.0.0/16, fd00::/8, billing.internal:8443"),
            List.of());
    assertThat(policy.refusal("127.0.0.1", address("127.0.0.1"), 8080)).isEmpty();
    assertThat(policy.refusal("127.0.0.2", address("127.0.0.2"), 8080)).isPresent();
    assertThat(policy.refusal("x", address("::ffff:127.0.0.1"), 8080))
        .as("a mapped form of an allowed address")
        .isEmpty();
    assertThat(policy.refusal("10.20.3.4", address("10.20.3.4"), 80)).isEmpty();
    assertThat(policy.refusal("10.21.0.1", address("10.21.0.1"), 80)).isPresent();
    assertThat(policy.refusal("fd00::5", address("fd00::5"), 80)).isEmpty();
    assertThat(policy.refusal("fd01::5", address("fd01::5"), 80)).isEmpty();
    assertThat(policy.refusal("fc00::5", address("fc00::5"), 80)).isPresent();
    assertThat(policy.refusal("billing.internal", address("10.9.9.9"), 8443))
        .as("a host allowed by name, on its port")
        .isEmpty();
    assertThat(policy.refusal("BILLING.internal.", address("10.9.9.9"), 8443)).isEmpty();
    assertThat(policy.refusal("billing.internal", address("10.9.9.9"), 8080))
        .as("another port of an entry with a port")
        .isPresent();
    assertThat(policy.refusal("other.internal", address("10.9.9.9"), 8443)).isPresent();
  }

  @Test
  void anAllowEntryWithAPortOpensThatPortOnly() {
    EgressPolicy policy =
        new EgressPolicy(EgressAllowList.parse("[::1]:8080,10.0.0.0/8:9000"), List.of());
    assertThat(policy.refusal("::1", address("::1"), 8080)).isEmpty();
    assertThat(policy.refusal("::1", address("::1"), 8081)).isPresent();
    assertThat(policy.refusal("10.1.1.1", address("10.1.1.1"), 9000)).isEmpty();
    assertThat(policy.refusal("10.1.1.1", address("10.1.1.1"), 9001)).isPresent();
  }

  @Test
  void theRedisPortIsRefusedOnLoopbackEvenWhenLoopbackIsAllowed() {
    EgressPolicy policy =
        new EgressPolicy(
            EgressAllowList.parse("127.0.0.0/8,::1"),
            List.of(InetSocketAddress.createUnresolved("127.0.0.1", 6390)));
    assertThat(policy.refusal("127.0.0.1", address("127.0.0.1"), 6390))
        .hasValueSatisfying(r -> assertThat(r).contains("this server's Redis"));
    assertThat(policy.refusal("127.0.0.2", address("127.0.0.2"), 6390)).isPresent();
    assertThat(policy.refusal("::1", address("::1"), 6390)).isPresent();
    assertThat(policy.refusal("0.0.0.0", address("0.0.0.0"), 6390)).isPresent();
    assertThat(policy.refusal("127.0.0.1", address("127.0.0.1"), 6391)).isEmpty();
  }

  @Test
  void aRemoteRedisIsRefusedOnItsAddressEvenWhenItsNetworkIsAllowed() {
    EgressPolicy policy =
        new EgressPolicy(
            EgressAllowList.parse("10.0.0.0/8"), RedisServers.of("redis://:pw@10.0.0.5:6379/0"));
    assertThat(policy.refusal("10.0.0.5", address("10.0.0.5"), 6379)).isPresent();
    assertThat(policy.refusal("10.0.0.6", address("10.0.0.6"), 6379)).isEmpty();
    assertThat(policy.refusal("10.0.0.5", address("10.0.0.5"), 80)).isEmpty();
  }

  @Test
  void registrationRefusesLiteralsAndNamesThatResolveToRefusedAddressesOnly() throws Exception {
    assertThatThrownBy(() -> DEFAULT.checkRegistration(URI.create("http://2130706433:8080/")))
        .isInstanceOf(EgressRefusedException.class)
        .hasMessage("127.0.0.1 is loopback");
    assertThatThrownBy(() -> DEFAULT.checkRegistration(URI.create("http://[::1]/")))
        .hasMessage(
            "::1 is loopback".replace("::1", InetAddress.getByName("::1").getHostAddress()));
    assertThatThrownBy(() -> DEFAULT.checkRegistration(URI.create("https://169.254.169.254/")))
        .hasMessage("169.254.169.254 is link-local");
    assertThatThrownBy(() -> DEFAULT.checkRegistration(URI.create("http://localhost:9000/")))
        .isInstanceOf(EgressRefusedException.class)
        .hasMessageStartingWith("localhost: ")
        .hasMessageEndingWith(" is loopback");
    // A name that does not resolve now is checked when a connection opens.
    DEFAULT.checkRegistration(URI.create("http://not-yet.invalid/"));
    DEFAULT.checkRegistration(URI.create("https://8.8.8.8/"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"10.0.0.0/33", "::1/129", "host:0", "host:70000", "bad host", "[::1", "a,b!"})
  void malformedAllowEntriesAreRefused(String entry) {
    assertThatThrownBy(() -> EgressAllowList.parse(entry))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anAllowListReadsBackAsItWasGiven() {
    assertThat(
            EgressAllowList.parse("127.0.0.1, 10.0.0.0/8:80,[fd00::/8]:443,api.internal")
                .toString())
        .isEqualTo("127.0.0.1/32,10.0.0.0/8:80,[fd00:0:0:0:0:0:0:0/8]:443,api.internal");
  }

  @Test
  void redisServersAreReadFromEveryUrlForm() {
    assertThat(RedisServers.of("redis://user:pw@cache.internal:6380/2"))
        .containsExactly(InetSocketAddress.createUnresolved("cache.internal", 6380));
    assertThat(RedisServers.of("rediss://cache.internal"))
        .containsExactly(InetSocketAddress.createUnresolved("cache.internal", 6379));
    assertThat(RedisServers.of("redis-sentinel://h1:26379,h2/0#main"))
        .containsExactly(
            InetSocketAddress.createUnresolved("h1", 26379),
            InetSocketAddress.createUnresolved("h2", 26379));
    assertThat(RedisServers.of("redis://10.0.0.1:7000,redis://10.0.0.2:7001"))
        .containsExactly(
            InetSocketAddress.createUnresolved("10.0.0.1", 7000),
            InetSocketAddress.createUnresolved("10.0.0.2", 7001));
    assertThat(RedisServers.of("redis://[::1]:6400"))
        .containsExactly(InetSocketAddress.createUnresolved("::1", 6400));
    assertThat(RedisServers.of(null)).isEmpty();
  }
}
