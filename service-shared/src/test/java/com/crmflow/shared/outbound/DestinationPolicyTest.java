package com.crmflow.shared.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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
        "[::]",
        "[2002:7f00:1::]", // 6to4 of 127.0.0.1
        "[2002:a9fe:a9fe::1]", // 6to4 of 169.254.169.254
        "[::ffff:0:7f00:1]", // IPv4-translated (SIIT) 127.0.0.1
        "[::ffff:0:a00:1]", // IPv4-translated 10.0.0.1
        "[64:ff9b::7f00:1]", // NAT64, well-known prefix, of 127.0.0.1
        "[64:ff9b:1::7f00:1]", // NAT64, local-use prefix
        "[64:ff9b:1::808:808]", // the local-use prefix whatever it embeds: the operator's network
        "[::7f00:1]", // IPv4-compatible, hex
        "[2001:0:808:808::80ff:fffe]", // Teredo, client 127.0.0.1 (stored inverted)
        "[2001:0:a00:1::f7f7:f7f7]", // Teredo, server 10.0.0.1
        "[2606:4700::5efe:a00:1]" // ISATAP of 10.0.0.1
      })
  void internalSpellingsAreRefused(String host) {
    assertThat(strict.refusal(host)).as(host).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "93.184.216.34",
        "8.8.8.8",
        "[2606:4700:4700::1111]",
        "1.1.1.1",
        "[2002:808:808::1]", // 6to4 of 8.8.8.8
        "[64:ff9b::808:808]", // NAT64 of 8.8.8.8
        "[::ffff:0:808:808]", // IPv4-translated 8.8.8.8
        "[2001:0:808:808::f7f7:f7f7]" // Teredo, server and client 8.8.8.8
      })
  void publicAddressesPass(String host) {
    assertThat(strict.refusal(host)).as(host).isNull();
  }

  /** Each IPv6 form that carries an IPv4 address, and the addresses read from it. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "::127.0.0.1          | 127.0.0.1",
        "::ffff:0:7f00:1      | 127.0.0.1",
        "64:ff9b::a00:1       | 10.0.0.1",
        "2002:7f00:1::        | 127.0.0.1",
        "2002:c0a8:101:1::1   | 192.168.1.1",
        "2001:0:a00:1::f7f7:f7f7 | 10.0.0.1 8.8.8.8",
        "fe80::5efe:a00:1     | 10.0.0.1",
        "2606:4700:4700::1111 | ''",
        "64:ff9b:2::7f00:1    | ''"
      })
  void theIpv4AddressesAnIpv6AddressCarries(String ipv6, String ipv4s) throws Exception {
    Inet6Address address = (Inet6Address) InetAddress.getByName(ipv6);
    assertThat(DestinationPolicy.embeddedIpv4(address).stream().map(InetAddress::getHostAddress))
        .as(ipv6)
        .containsExactlyElementsOf(ipv4s.isEmpty() ? List.of() : Arrays.asList(ipv4s.split(" ")));
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
