package com.crmflow.shared.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.DnsResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The guard works when the connection is dialled, against a real server on loopback. */
class OutboundHttpClientTest {

  private HttpServer server;
  private final AtomicInteger hits = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          hits.incrementAndGet();
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private int port() {
    return server.getAddress().getPort();
  }

  /** A name that resolves to a public address the first time and to loopback afterwards. */
  private static final class RebindingResolver implements DnsResolver {
    private final AtomicInteger lookups = new AtomicInteger();

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
      return lookups.getAndIncrement() == 0
          ? new InetAddress[] {InetAddress.getByName("93.184.216.34")}
          : new InetAddress[] {InetAddress.getByName("127.0.0.1")};
    }

    @Override
    public String resolveCanonicalHostname(String host) {
      return host;
    }
  }

  @Test
  void loopbackIsRefusedBeforeAnyConnection() throws Exception {
    OutboundHttpClient client =
        new OutboundHttpClient(new DestinationPolicy(false), "" /* JVM trust */);
    for (String host :
        new String[] {"127.0.0.1", "localhost", "2130706433", "[::ffff:127.0.0.1]"}) {
      URI uri = URI.create("http://" + host + ":" + port() + "/x");
      assertThatThrownBy(() -> client.send("GET", uri, Map.of(), null, Duration.ofSeconds(5), 1024))
          .as(host)
          .isInstanceOf(ForbiddenDestinationException.class);
    }
    assertThat(hits).hasValue(0);
    client.destroy();
  }

  @Test
  void aNameRebindingToLoopbackAfterValidationIsRefusedAtDialTime() throws Exception {
    RebindingResolver dns = new RebindingResolver();
    DestinationPolicy policy = new DestinationPolicy(false);
    // validation-time check sees the public address
    assertThat(policy.refusal("rebind.example", dns.resolve("rebind.example"))).isNull();
    OutboundHttpClient client = new OutboundHttpClient(policy, dns, SSLContext.getDefault());

    URI uri = URI.create("http://rebind.example:" + port() + "/x");
    assertThatThrownBy(() -> client.send("GET", uri, Map.of(), null, Duration.ofSeconds(5), 1024))
        .isInstanceOf(ForbiddenDestinationException.class)
        .hasMessageContaining("127.0.0.1");
    assertThat(hits).hasValue(0);
    client.destroy();
  }

  @Test
  void withTheDevelopmentSettingLoopbackIsCalled() throws Exception {
    OutboundHttpClient client = new OutboundHttpClient(new DestinationPolicy(true), "");
    OutboundHttpClient.Response response =
        client.send(
            "GET",
            URI.create("http://127.0.0.1:" + port() + "/x"),
            Map.of(),
            null,
            Duration.ofSeconds(5),
            1024);
    assertThat(response.status()).isEqualTo(204);
    assertThat(hits).hasValue(1);
    client.destroy();
  }
}
