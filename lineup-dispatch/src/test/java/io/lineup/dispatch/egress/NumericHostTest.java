package io.lineup.dispatch.egress;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NumericHostTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "127.0.0.1",
        "2130706433",
        "0x7f.1",
        "127.1",
        "127.0.1",
        "017700000001",
        "0x7f000001",
        "0X7F.0.0.1",
        "0177.0.0.01",
        "127.0.0.1.",
        "[::ffff:127.0.0.1]",
        "::ffff:7f00:1"
      })
  void everyNumericFormOfLoopbackReadsAs127001(String host) throws Exception {
    assertThat(NumericHost.parse(host)).contains(InetAddress.getByName("127.0.0.1"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "0x0", "0.0.0.0", "00"})
  void zeroInAnyFormReadsAsTheUnspecifiedAddress(String host) throws Exception {
    assertThat(NumericHost.parse(host)).contains(InetAddress.getByName("0.0.0.0"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"[::1]", "::1", "[0:0:0:0:0:0:0:1]", "[fe80::1%eth0]"})
  void ipv6LiteralsAreReadWithOrWithoutBracketsAndZone(String host) {
    assertThat(NumericHost.parse(host)).isPresent();
    assertThat(NumericHost.parse(host).get().getHostAddress()).doesNotContain("%");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "example.com",
        "localhost",
        "metadata.google.internal",
        "256.1.1.1",
        "1.2.3.4.5",
        "4294967296",
        "1.16777216",
        "08",
        "0x",
        "1..1",
        "127.0.0.1x",
        "[zz::1]",
        ""
      })
  void namesAndMalformedNumbersAreNotAddresses(String host) {
    assertThat(NumericHost.parse(host)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"169.254.169.254", "0xa9fea9fe", "2852039166", "0251.0376.0251.0376"})
  void theMetadataAddressIsFoundInItsNumericForms(String host) throws Exception {
    assertThat(NumericHost.parse(host)).contains(InetAddress.getByName("169.254.169.254"));
  }
}
