package com.crmflow.shared.outbound;

import com.google.common.net.InetAddresses;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Which addresses outbound calls (http_request nodes, webhook deliveries, chat APIs) may reach.
 * Refused unless {@code crm.http.allow-private-addresses} is true (local development and tests):
 * loopback, private (RFC 1918), link-local (cloud metadata 169.254.169.254 among them), CGNAT
 * (100.64/10), "this network" (0/8), IETF protocol assignments (192.0.0/24), benchmarking
 * (198.18/15), reserved (240/4) and broadcast, unspecified, multicast, IPv6 unique-local (fc00::/7,
 * so fd00:ec2::254 too), IPv6 addresses that embed one of those IPv4 addresses (IPv4-mapped
 * ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96,
 * 6to4 2002::/16, Teredo 2001::/32 by its server or client, ISATAP), and NAT64's local-use prefix
 * 64:ff9b:1::/48 whatever it embeds.
 *
 * <p>Addresses are judged after resolution, so every spelling of a host (decimal 2130706433, octal
 * 0177.0.0.1, hex 0x7f.0.0.1, short 127.1, [::ffff:127.0.0.1]) is judged by what it resolves to.
 * {@link GuardedDnsResolver} applies this to the very addresses a connection is opened to.
 */
@Component
public class DestinationPolicy {

  private final boolean allowPrivate;

  @Autowired
  public DestinationPolicy(IntegrationProperties properties) {
    this(properties.http().allowPrivateAddresses());
  }

  public DestinationPolicy(boolean allowPrivate) {
    this.allowPrivate = allowPrivate;
  }

  public boolean allowsPrivate() {
    return allowPrivate;
  }

  /** Why the host may not be called, or null when it may (or does not resolve at all). */
  public String refusal(String host) {
    if (allowPrivate) {
      return null;
    }
    String spelling = spellingRefusal(host);
    if (spelling != null) {
      return spelling;
    }
    try {
      return refusal(host, InetAddress.getAllByName(host));
    } catch (UnknownHostException e) {
      return null; // the call itself will fail with a clear network error
    }
  }

  /** Why these resolved addresses of the host may not be called, or null when they may. */
  public String refusal(String host, InetAddress[] addresses) {
    if (allowPrivate) {
      return null;
    }
    String spelling = spellingRefusal(host);
    if (spelling != null) {
      return spelling;
    }
    for (InetAddress address : addresses) {
      if (isInternal(address)) {
        return host + " resolves to the internal address " + address.getHostAddress();
      }
    }
    return null;
  }

  /**
   * Numeric hosts other than plain dotted decimal (2130706433, 0177.0.0.1, 0x7f.1, 127.1) mean
   * different addresses to different parsers (inet_aton reads 0177 as octal, Java as decimal), so
   * they are refused outright; what they mean to inet_aton is named in the message.
   */
  static String spellingRefusal(String host) {
    String h = host.toLowerCase(java.util.Locale.ROOT);
    if (!h.matches("[0-9a-fx.]+")) {
      return null; // a name or an IPv6 literal: judged by what it resolves to
    }
    if (h.matches(
        "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}")) {
      return null; // canonical dotted decimal: unambiguous
    }
    Long value = inetAton(h);
    if (value == null) {
      return null; // not a number at all (a name made of hex letters): resolves or fails
    }
    String meant =
        ((value >> 24) & 0xff)
            + "."
            + ((value >> 16) & 0xff)
            + "."
            + ((value >> 8) & 0xff)
            + "."
            + (value & 0xff);
    return host + " is a non-canonical IPv4 spelling (read as " + meant + " by inet_aton)";
  }

  /** The address inet_aton makes of a spelling with 1 to 4 decimal, octal or hex parts. */
  static Long inetAton(String h) {
    String[] parts = h.split("\\.", -1);
    if (parts.length < 1 || parts.length > 4) {
      return null;
    }
    long[] values = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      try {
        if (p.startsWith("0x")) {
          values[i] = p.length() == 2 ? 0 : Long.parseLong(p.substring(2), 16);
        } else if (p.length() > 1 && p.startsWith("0")) {
          values[i] = Long.parseLong(p.substring(1), 8);
        } else {
          values[i] = Long.parseLong(p);
        }
      } catch (NumberFormatException e) {
        return null;
      }
    }
    long address = 0;
    for (int i = 0; i < values.length - 1; i++) {
      if (values[i] > 0xff) {
        return null;
      }
      address |= values[i] << (24 - 8 * i);
    }
    long last = values[values.length - 1];
    long lastMax = (1L << (8 * (5 - values.length))) - 1;
    if (last > lastMax) {
      return null;
    }
    return address | last;
  }

  static boolean isInternal(InetAddress address) {
    if (address.isLoopbackAddress()
        || address.isSiteLocalAddress()
        || address.isLinkLocalAddress()
        || address.isAnyLocalAddress()
        || address.isMulticastAddress()) {
      return true;
    }
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address) {
      return isInternalIpv4(b);
    }
    if (address instanceof Inet6Address v6) {
      if ((b[0] & 0xfe) == 0xfc) {
        return true; // fc00::/7 unique local
      }
      if (word(b, 0) == 0x64 && word(b, 2) == 0xff9b && word(b, 4) == 1) {
        // 64:ff9b:1::/48, the local-use NAT64 prefix (RFC 8215): a translator of the operator's
        // own network, which may place the IPv4 address anywhere its prefix length says
        return true;
      }
      return embeddedIpv4(v6).stream().anyMatch(DestinationPolicy::isInternal);
    }
    return false;
  }

  private static boolean isInternalIpv4(byte[] b) {
    int first = b[0] & 0xff;
    int second = b[1] & 0xff;
    int third = b[2] & 0xff;
    return first == 0
        || first == 10
        || first == 127
        || (first == 100 && second >= 64 && second <= 127)
        || (first == 169 && second == 254)
        || (first == 172 && second >= 16 && second <= 31)
        || (first == 192 && second == 168)
        || (first == 192 && second == 0 && third == 0)
        || (first == 198 && (second == 18 || second == 19))
        || first >= 224;
  }

  /**
   * The IPv4 addresses an IPv6 address carries, which a host or a translator on the way may reach
   * in its place. Guava's {@link InetAddresses} reads IPv4-compatible {@code ::a.b.c.d}, 6to4
   * {@code 2002:AABB:CCDD::/48}, Teredo {@code 2001::/32} (its server and its client) and ISATAP
   * ({@code ...:5efe:a.b.c.d}); the forms it does not know are read here: IPv4-mapped {@code
   * ::ffff:a.b.c.d}, IPv4-translated (SIIT) {@code ::ffff:0:a.b.c.d} and NAT64's well-known prefix
   * {@code 64:ff9b::/96}, each with the address in the last 32 bits.
   */
  static List<Inet4Address> embeddedIpv4(Inet6Address address) {
    List<Inet4Address> embedded = new ArrayList<>();
    if (InetAddresses.isCompatIPv4Address(address)) {
      embedded.add(InetAddresses.getCompatIPv4Address(address));
    }
    if (InetAddresses.is6to4Address(address)) {
      embedded.add(InetAddresses.get6to4IPv4Address(address));
    }
    if (InetAddresses.isTeredoAddress(address)) {
      InetAddresses.TeredoInfo teredo = InetAddresses.getTeredoInfo(address);
      embedded.add(teredo.getServer());
      embedded.add(teredo.getClient());
    }
    if (InetAddresses.isIsatapAddress(address)) {
      embedded.add(InetAddresses.getIsatapIPv4Address(address));
    }
    byte[] b = address.getAddress();
    if (lastWordsAre(b, 0, 0xffff) || lastWordsAre(b, 0xffff, 0) || wellKnownNat64(b)) {
      embedded.add(InetAddresses.fromInteger((word(b, 12) << 16) | word(b, 14)));
    }
    return embedded;
  }

  /**
   * Whether the first 64 bits are zero and the 16-bit words 4 and 5 (from 0) are these: (0, 0xffff)
   * is IPv4-mapped {@code ::ffff:a.b.c.d}, (0xffff, 0) IPv4-translated {@code ::ffff:0:a.b.c.d}.
   */
  private static boolean lastWordsAre(byte[] b, int fourth, int fifth) {
    for (int i = 0; i < 8; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return word(b, 8) == fourth && word(b, 10) == fifth;
  }

  /** 64:ff9b::/96, NAT64's well-known prefix (RFC 6052). */
  private static boolean wellKnownNat64(byte[] b) {
    if (word(b, 0) != 0x64 || word(b, 2) != 0xff9b) {
      return false;
    }
    for (int i = 4; i < 12; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static int word(byte[] b, int at) {
    return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
  }
}
