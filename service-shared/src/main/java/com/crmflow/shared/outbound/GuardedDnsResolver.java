package com.crmflow.shared.outbound;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import org.apache.hc.client5.http.DnsResolver;

/**
 * Resolves for the HTTP client's connection operator, which connects to exactly the addresses
 * returned here: checking them here is checking at dial time, so a name that resolves to a public
 * address when validated and to an internal one when called (DNS rebinding) is still refused.
 */
public final class GuardedDnsResolver implements DnsResolver {

  private final DestinationPolicy policy;
  private final DnsResolver resolver;

  public GuardedDnsResolver(DestinationPolicy policy, DnsResolver resolver) {
    this.policy = policy;
    this.resolver = resolver;
  }

  @Override
  public InetAddress[] resolve(String host) throws UnknownHostException {
    if (!policy.allowsPrivate()) {
      String spelling = DestinationPolicy.spellingRefusal(host);
      if (spelling != null) {
        throw new ForbiddenDestinationException(spelling);
      }
    }
    InetAddress[] addresses = resolver.resolve(host);
    String refusal = policy.refusal(host, addresses);
    if (refusal != null) {
      throw new ForbiddenDestinationException(refusal);
    }
    return addresses;
  }

  @Override
  public List<InetSocketAddress> resolve(String host, int port) throws UnknownHostException {
    return Arrays.stream(resolve(host)).map(a -> new InetSocketAddress(a, port)).toList();
  }

  @Override
  public String resolveCanonicalHostname(String host) throws UnknownHostException {
    return resolver.resolveCanonicalHostname(host);
  }
}
