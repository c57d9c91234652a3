package com.crmflow.worker.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.crmflow.shared.outbound.CauseHeader;
import com.crmflow.shared.outbound.DestinationPolicy;
import com.crmflow.shared.outbound.OutboundCallObserver;
import com.crmflow.shared.outbound.OutboundHttpClient;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.action.HttpRequestCommand;
import com.sun.net.httpserver.HttpServer;
import io.temporal.failure.ApplicationFailure;
import java.net.InetSocketAddress;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;

/**
 * The activity unseals credential headers and names its run only to this deployment, against a real
 * server on loopback.
 */
class HttpRequestSecretsTest {

  private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
  private static final UUID TENANT = UUID.randomUUID();
  private static final UUID RUN = UUID.randomUUID();

  private HttpServer server;
  private final Map<String, String> received = new ConcurrentHashMap<>();
  private final OutboundHttpClient http = new OutboundHttpClient(new DestinationPolicy(true), "");

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          exchange.getRequestHeaders().forEach((name, values) -> received.put(name, values.get(0)));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop(0);
    http.destroy();
  }

  private HttpRequestActivitiesImpl activities(SecretCipher cipher) {
    return new HttpRequestActivitiesImpl(
        http,
        cipher,
        new CauseHeader(cipher),
        new DefaultListableBeanFactory().getBeanProvider(OutboundCallObserver.class));
  }

  private HttpRequestCommand command(Map<String, String> headers, Map<String, String> variables) {
    return new HttpRequestCommand(
        "GET",
        "http://127.0.0.1:" + server.getAddress().getPort() + "/in",
        headers,
        null,
        5,
        RUN + ":node",
        TENANT.toString(),
        variables);
  }

  @Test
  void aSealedHeaderIsSentInPlainTextWithItsVariablesFilledIn() {
    SecretCipher cipher = new SecretCipher(KEY, "");
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Authorization", cipher.seal(TENANT, "Bearer {{trigger.token}}"));
    headers.put("X-Plain", "as written");

    var response =
        activities(cipher).send(command(headers, Map.of("{{trigger.token}}", "abc-123")));

    assertThat(response.statusCode()).isEqualTo(204);
    assertThat(received).containsEntry("Authorization", "Bearer abc-123");
    assertThat(received).containsEntry("X-plain", "as written");
  }

  @Test
  void theReceiverGetsAStableKeyAndATokenForThisDeploymentNotTheRun() {
    SecretCipher cipher = new SecretCipher(KEY, "");
    CauseHeader causes = new CauseHeader(cipher);
    Map<String, String> headers = new LinkedHashMap<>();
    // a node's own headers of those names are replaced
    headers.put("idempotency-key", "mine");
    headers.put("crm-cause", RUN + ":forged");

    activities(cipher).send(command(headers, Map.of()));

    assertThat(received)
        .containsEntry("Idempotency-key", causes.idempotencyKey(TENANT, RUN + ":node"))
        .containsKey("Crm-cause");
    assertThat(received.values()).noneMatch(value -> value.contains(RUN.toString()));
    assertThat(causes.read(TENANT, received.get("Crm-cause")))
        .contains(new CauseHeader.Cause(RUN, "node"));
  }

  @Test
  void aWorkerWithoutTheKeyFailsTheNodeAtOnceSayingWhy() {
    String sealed = new SecretCipher(KEY, "").seal(TENANT, "Bearer s3cret");
    HttpRequestActivitiesImpl keyless = activities(new SecretCipher("", ""));

    assertThatThrownBy(() -> keyless.send(command(Map.of("Authorization", sealed), Map.of())))
        .isInstanceOfSatisfying(
            ApplicationFailure.class,
            failure -> {
              assertThat(failure.isNonRetryable()).isTrue();
              assertThat(failure.getOriginalMessage())
                  .contains("header Authorization", "CRM_SECRETS_KEY");
            });
    assertThat(received).isEmpty();
  }
}
