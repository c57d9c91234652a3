package com.crmflow.worker.activity;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Which hosts outbound calls may reach. Loopback, private (RFC 1918), link-local (with cloud
 * metadata at 169.254.169.254), CGNAT (100.64/10), unique-local (fc00::/7), unspecified and
 * multicast addresses are refused unless {@code crm.http.allow-private-addresses} is true (for
 * local development and tests). Every address the name resolves to must be allowed.
 */
@Component
public class DestinationPolicy {

  private final boolean allowPrivate;

  public DestinationPolicy(
      @Value("${crm.http.allow-private-addresses:false}") boolean allowPrivate) {
    this.allowPrivate = allowPrivate;
  }

  /** Why the host may not be called, or null when it may. */
  public String refusal(String host) {
    if (allowPrivate) {
      return null;
    }
    try {
      for (InetAddress address : InetAddress.getAllByName(host)) {
        if (isInternal(address)) {
          return host + " resolves to the internal address " + address.getHostAddress();
        }
      }
      return null;
    } catch (UnknownHostException e) {
      return null; // the call itself will fail with a clear network error
    }
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
      int first = b[0] & 0xff;
      int second = b[1] & 0xff;
      return first == 0 || (first == 100 && second >= 64 && second <= 127);
    }
    if (address instanceof Inet6Address) {
      return (b[0] & 0xfe) == 0xfc; // fc00::/7 unique local
    }
    return false;
  }
}
