package com.crmflow.shared.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.DnsResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a failed call says, from the real client's own failures against loopback peers: a host that
 * does not resolve, a port that refuses, a peer that never answers, a peer that hangs up, and one
 * that speaks no TLS. No Java class name reaches the user.
 */
class NetworkErrorsTest {

  private final OutboundHttpClient client =
      new OutboundHttpClient(new DestinationPolicy(true), new NoSuchHost(), sslContext());

  @AfterEach
  void stop() throws Exception {
    client.destroy();
  }

  @Test
  void aHostThatDoesNotResolve() {
    assertThat(describe("http://vm./x")).isEqualTo("could not resolve host vm.");
  }

  @Test
  void aPortThatRefuses() throws Exception {
    try (Socket holder = new Socket()) {
      holder.bind(new InetSocketAddress("127.0.0.1", 0)); // bound, never listening
      assertThat(describe("http://127.0.0.1:" + holder.getLocalPort() + "/x"))
          .isEqualTo("could not connect to 127.0.0.1: the connection was refused");
    }
  }

  @Test
  void aPeerThatNeverAnswers() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      assertThat(
              describe("http://127.0.0.1:" + silent.getLocalPort() + "/x", Duration.ofSeconds(1)))
          .isEqualTo("127.0.0.1: no complete answer within 1 s");
    }
  }

  @Test
  void aPeerThatHangsUpAndOneThatSpeaksNoTls() throws Exception {
    try (ServerSocket rude = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread hangUp =
          new Thread(
              () -> {
                for (int i = 0; i < 2; i++) {
                  try (Socket accepted = rude.accept()) {
                    accepted.getInputStream().read(new byte[64]);
                    accepted.getOutputStream().write("nonsense".getBytes());
                  } catch (IOException ignored) {
                    return;
                  }
                }
              });
      hangUp.start();
      String plain = describe("http://127.0.0.1:" + rude.getLocalPort() + "/x");
      String tls = describe("https://127.0.0.1:" + rude.getLocalPort() + "/x");
      hangUp.join(5_000);

      assertThat(plain).isEqualTo("127.0.0.1 closed the connection without an answer");
      assertThat(tls).startsWith("the TLS connection to 127.0.0.1 failed");
    }
  }

  /**
   * How the client's failure to fetch the URL reads, within 30 s: failures that come at once (a
   * refusal, a hang-up) are not mistaken for a timeout on a slow machine.
   */
  private String describe(String url) {
    return describe(url, Duration.ofSeconds(30));
  }

  private String describe(String url, Duration timeout) {
    URI uri = URI.create(url);
    IOException failure =
        catchThrowableOfType(
            IOException.class, () -> client.send("GET", uri, Map.of(), null, timeout, 1024));
    assertThat(failure).as(url + " failed").isNotNull();
    String described = NetworkErrors.describe(failure, uri.getHost());
    assertThat(described)
        .doesNotContainPattern("[a-z]+\\.[a-z]+\\.[A-Z][A-Za-z]+(Exception|Error)");
    return described;
  }

  /** DNS that knows no name: every lookup of a name fails as it does for an unknown host. */
  private static final class NoSuchHost implements DnsResolver {
    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
      if (host.equals("127.0.0.1")) {
        return new InetAddress[] {InetAddress.getLoopbackAddress()};
      }
      throw new UnknownHostException(host);
    }

    @Override
    public String resolveCanonicalHostname(String host) {
      return host;
    }
  }

  private static SSLContext sslContext() {
    try {
      return SSLContext.getDefault();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
