package com.crmflow.shared.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every spelling of an internal address is refused; public addresses and names are not. */
class DestinationPolicyTest {

  private final DestinationPolicy strict = new DestinationPolicy(false);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "127.0.0.1",
        "localhost",
        "2130706433", // decimal 127.0.0.1
        "0177.0.0.1", // octal
        "0x7f.0.0.1", // hex
        "0x7f000001",
        "127.1", // short form
        "017700000001",
        "[::1]",
        "[::ffff:127.0.0.1]", // IPv4-mapped IPv6
        "[::ffff:7f00:1]",
        "[0:0:0:0:0:ffff:a9fe:a9fe]", // mapped 169.254.169.254
        "[::127.0.0.1]", // IPv4-compatible
        "[64:ff9b::a00:1]", // NAT64 of 10.0.0.1
        "169.254.169.254", // cloud metadata
        "10.0.0.1",
        "172.16.5.4",
        "192.168.1.1",
        "100.64.0.1", // CGNAT
        "0.0.0.0",
        "198.18.0.1",
        "224.0.0.1",
        "255.255.255.255",
        "[fd00:ec2::254]", // AWS metadata over IPv6 (unique local)
        "[fe80::1]",
        "[::]"
      })
  void internalSpellingsAreRefused(String host) {
    assertThat(strict.refusal(host)).as(host).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "[2606:4700:4700::1111]", "1.1.1.1"})
  void publicAddressesPass(String host) {
    assertThat(strict.refusal(host)).as(host).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2130706433", "0177.0.0.1", "0x7f.1"})
  void ambiguousSpellingsNameWhatInetAtonReads(String host) {
    assertThat(DestinationPolicy.spellingRefusal(host)).contains("127.0.0.1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "10.0.0.1", "localhost"})
  void theDevelopmentSettingAllowsInternalAddresses(String host) throws Exception {
    DestinationPolicy relaxed = new DestinationPolicy(true);
    assertThat(relaxed.refusal(host)).isNull();
    assertThat(relaxed.refusal(host, InetAddress.getAllByName(host))).isNull();
  }
}
