package com.crmflow.shared.outbound;

import io.micrometer.core.instrument.binder.httpcomponents.hc5.ObservationExecChainHandler;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.Timeout;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The one HTTP client for calls to user-chosen URLs (http_request nodes, webhook deliveries, chat
 * APIs). Every connection goes through {@link GuardedDnsResolver}, so internal addresses are
 * refused at dial time. No redirects, no retries of its own (the callers' retry policies decide),
 * no cookies; a hard deadline per call covers connect, send and receive together.
 *
 * <p>TLS trusts the JVM's CAs plus the certificates in {@code crm.http.trusted-certificates} (a PEM
 * file; for receivers with a self-signed certificate in development and tests).
 *
 * <p>Each call is an observation of the application's registry: with tracing, a client span of the
 * current trace whose W3C {@code traceparent} (and {@code tracestate}) the request carries.
 */
@Component
public class OutboundHttpClient implements DisposableBean {

  /** A response as read: the body is cut at the caller's limit ({@code truncated} then). */
  public record Response(
      int status, Map<String, List<String>> headers, byte[] body, boolean truncated) {

    public Optional<String> header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst();
    }
  }

  private static final ScheduledExecutorService DEADLINES =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "outbound-http-deadline");
            thread.setDaemon(true);
            return thread;
          });

  private final CloseableHttpClient client;

  @Autowired
  public OutboundHttpClient(
      DestinationPolicy policy,
      IntegrationProperties properties,
      ObjectProvider<ObservationRegistry> observations) {
    this(
        policy,
        SystemDefaultDnsResolver.INSTANCE,
        sslContext(properties.http().trustedCertificates()),
        observations.getIfAvailable(() -> ObservationRegistry.NOOP));
  }

  public OutboundHttpClient(DestinationPolicy policy, String trustedCertificates) {
    this(policy, SystemDefaultDnsResolver.INSTANCE, sslContext(trustedCertificates));
  }

  /** With a given resolver underneath the guard (tests simulate DNS rebinding with it). */
  public OutboundHttpClient(DestinationPolicy policy, DnsResolver resolver, SSLContext ssl) {
    this(policy, resolver, ssl, ObservationRegistry.NOOP);
  }

  /**
   * @param observations where each call is observed (its tracing handler writes the traceparent)
   */
  @SuppressWarnings("deprecation") // Micrometer's handler propagates the trace; httpclient5's own
  // observation module (its named successor) opens spans without writing a traceparent
  public OutboundHttpClient(
      DestinationPolicy policy,
      DnsResolver resolver,
      SSLContext ssl,
      ObservationRegistry observations) {
    this.client =
        HttpClients.custom()
            .addExecInterceptorLast(
                "micrometer-observation", new ObservationExecChainHandler(observations))
            .addExecInterceptorAfter(
                "micrometer-observation", "own-trace-context-only", OutboundHttpClient::ownTrace)
            .setConnectionManager(
                PoolingHttpClientConnectionManagerBuilder.create()
                    .setDnsResolver(new GuardedDnsResolver(policy, resolver))
                    .setTlsSocketStrategy(new DefaultClientTlsStrategy(ssl))
                    .setDefaultConnectionConfig(
                        ConnectionConfig.custom()
                            .setConnectTimeout(Timeout.ofSeconds(10))
                            .setSocketTimeout(Timeout.ofSeconds(60))
                            .build())
                    .setMaxConnTotal(200)
                    .setMaxConnPerRoute(50)
                    .build())
            .disableRedirectHandling()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .build();
  }

  /**
   * Sends the request and reads at most {@code maxBytes} of the body.
   *
   * @throws ForbiddenDestinationException the host resolved to an internal address
   * @throws IOException network trouble, or the deadline passed
   */
  public Response send(
      String method,
      URI uri,
      Map<String, String> headers,
      byte[] body,
      Duration deadline,
      int maxBytes)
      throws IOException {
    HttpUriRequestBase request = new HttpUriRequestBase(method, uri);
    String contentType = null;
    for (Map.Entry<String, String> header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase("Content-Type")) {
        contentType = header.getValue();
      } else {
        request.addHeader(header.getKey(), header.getValue());
      }
    }
    if (body != null) {
      request.setEntity(
          new ByteArrayEntity(
              body,
              contentType == null ? ContentType.APPLICATION_JSON : ContentType.parse(contentType)));
    } else if (contentType != null) {
      request.addHeader("Content-Type", contentType);
    }
    // the deadline timer below ends the call; these only keep a stuck socket from outliving it
    Timeout backstop = Timeout.of(deadline.plusSeconds(1));
    request.setConfig(
        RequestConfig.custom()
            .setResponseTimeout(backstop)
            .setConnectionRequestTimeout(backstop)
            .build());
    ScheduledFuture<?> timer =
        DEADLINES.schedule(request::cancel, deadline.toMillis(), TimeUnit.MILLISECONDS);
    HttpClientContext context = HttpClientContext.create();
    context.setAttribute(GIVEN_HEADERS, new LinkedHashMap<>(headers));
    try {
      return client.execute(
          request,
          context,
          response -> {
            Map<String, List<String>> received = new LinkedHashMap<>();
            for (Header header : response.getHeaders()) {
              received
                  .computeIfAbsent(header.getName(), k -> new ArrayList<>())
                  .add(header.getValue());
            }
            byte[] bytes = new byte[0];
            HttpEntity entity = response.getEntity();
            if (entity != null) {
              try (InputStream in = entity.getContent()) {
                bytes = in.readNBytes(maxBytes + 1);
              }
            }
            boolean truncated = bytes.length > maxBytes;
            if (truncated) {
              bytes = Arrays.copyOf(bytes, maxBytes);
            }
            return new Response(response.getCode(), received, bytes, truncated);
          });
    } catch (IOException e) {
      if (request.isCancelled()) {
        HttpTimeoutException late =
            new HttpTimeoutException("no complete answer within " + deadline.toSeconds() + " s");
        late.initCause(e);
        throw late;
      }
      throw e;
    } finally {
      timer.cancel(false);
    }
  }

  /** The context attribute with the headers a caller of {@link #send} gave. */
  private static final String GIVEN_HEADERS = "crmflow.given-headers";

  /**
   * The trace context fields that carry what callers put in: {@code tracestate} (vendors' entries)
   * and {@code baggage}. The service's traces continue a caller's trace id, but these go to no one
   * else.
   */
  private static final List<String> CALLERS_TRACE_FIELDS = List.of("tracestate", "baggage");

  /**
   * Runs after the observation has written the trace context into the request: of it, only the
   * {@code traceparent} leaves, so that a public trigger's caller cannot hand a third party an
   * entry of its own through a run. A header of those names that the call itself sets (an
   * http_request node's own) is sent as set.
   */
  private static ClassicHttpResponse ownTrace(
      ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
      throws IOException, HttpException {
    @SuppressWarnings("unchecked")
    Map<String, String> given =
        scope.clientContext.getAttribute(GIVEN_HEADERS) instanceof Map<?, ?> map
            ? (Map<String, String>) map
            : Map.of();
    for (String field : CALLERS_TRACE_FIELDS) {
      request.removeHeaders(field);
      given.forEach(
          (name, value) -> {
            if (name.equalsIgnoreCase(field)) {
              request.addHeader(name, value);
            }
          });
    }
    return chain.proceed(request, scope);
  }

  @Override
  public void destroy() throws IOException {
    client.close();
  }

  static SSLContext sslContext(String trustedCertificates) {
    try {
      if (trustedCertificates == null || trustedCertificates.isBlank()) {
        return SSLContext.getDefault();
      }
      TrustManagerFactory defaults =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      defaults.init((KeyStore) null);
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int i = 0;
      for (var manager : defaults.getTrustManagers()) {
        if (manager instanceof X509TrustManager x509) {
          for (X509Certificate ca : x509.getAcceptedIssuers()) {
            trust.setCertificateEntry("ca-" + i++, ca);
          }
        }
      }
      try (InputStream in = Files.newInputStream(Path.of(trustedCertificates.trim()))) {
        for (Certificate extra : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
          trust.setCertificateEntry("extra-" + i++, extra);
        }
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException(
          "cannot read crm.http.trusted-certificates " + trustedCertificates + ": " + e, e);
    }
  }
}
