package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.RefusedPort;
import com.crmflow.shared.outbound.CauseHeader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The retry rules of http_request against a real server on loopback, as the embedded service runs
 * them (a local activity): refused connections, 5xx and 429 are retried with the same
 * Idempotency-Key, Retry-After is honoured, other 4xx and oversized answers fail the node at once,
 * and the node is logged once. The receiver learns neither the run nor what the trigger's caller
 * put into the trace.
 */
class HttpRequestNodeTest extends ApiTest {

  private LocalHttpServer peer;
  private TenantClient tenant;
  @Autowired private CauseHeader causeHeader;

  @BeforeEach
  void setUp() {
    peer = new LocalHttpServer();
    tenant = newTenant();
  }

  @AfterEach
  void tearDown() {
    peer.close();
  }

  /** webhook → http_request POST url; returns the trigger node id. */
  private String automationCalling(String url) {
    return automation(node("call", "http_request", Map.of("method", "POST", "url", url)));
  }

  /** webhook → each of the nodes in turn; returns the trigger node id. */
  @SafeVarargs
  private String automation(Map<String, Object>... steps) {
    String hook = uniqueId("hook");
    activeAutomation(tenant.api(), chain(hook, steps));
    return hook;
  }

  private JsonNode run(String hook) {
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("n", 1));
    return awaitRun(tenant.api(), runId);
  }

  /**
   * Trigger values in the url's path are one segment each, so a stored credential goes to the path
   * the url's text names, whatever the values hold: the request line the peer got shows them
   * encoded.
   */
  @Test
  void triggerValuesInTheUrlsPathAreEncodedAsOneSegment() {
    String hook =
        automation(
            node(
                "call",
                "http_request",
                Map.of(
                    "method",
                    "POST",
                    "url",
                    peer.url("/api/orders/{{trigger.order_id}}/status?by={{trigger.by}}"),
                    "headers",
                    Map.of("Authorization", "Bearer partner-secret"))));
    Map<String, String> sent =
        Map.of(
            "../../admin/delete-all?x=",
            "/api/orders/..%2F..%2Fadmin%2Fdelete-all%3Fx%3D/status?by=ops%26force%3Dtrue",
            "123#",
            "/api/orders/123%23/status?by=ops%26force%3Dtrue",
            "123?force=true&",
            "/api/orders/123%3Fforce%3Dtrue%26/status?by=ops%26force%3Dtrue");
    sent.forEach(
        (orderId, target) -> {
          String runId =
              fire(
                  anonymous(),
                  tenant.id(),
                  hook,
                  Map.of("order_id", orderId, "by", "ops&force=true"));
          JsonNode run = awaitRun(tenant.api(), runId);
          assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
        });

    assertThat(peer.received().stream().map(LocalHttpServer.Received::target))
        .containsExactlyInAnyOrderElementsOf(sent.values());
    assertThat(peer.received())
        .allSatisfy(
            call -> {
              assertThat(call.header("Authorization")).isEqualTo("Bearer partner-secret");
              assertThat(call.path()).startsWith("/api/orders/").endsWith("/status");
            });
  }

  /**
   * A value that would send the call to another origin, or put a dot segment in its path, fails the
   * node before anything is sent, saying why.
   */
  @Test
  void valuesThatWouldMoveTheCallFailTheNodeAndSendNothing() {
    String origin = peer.url("");
    String moved =
        automation(
            node(
                "call",
                "http_request",
                Map.of("method", "GET", "url", origin + "{{trigger.path}}")));
    String dotted =
        automation(
            node(
                "call",
                "http_request",
                Map.of(
                    "method", "GET", "url", peer.url("/api/orders/{{trigger.order_id}}/status"))));

    JsonNode elsewhere =
        awaitRun(
            tenant.api(), fire(anonymous(), tenant.id(), moved, Map.of("path", "@evil.example/x")));
    JsonNode up =
        awaitRun(tenant.api(), fire(anonymous(), tenant.id(), dotted, Map.of("order_id", "..")));

    assertThat(elsewhere.get("status").asString()).as(elsewhere.toString()).isEqualTo("failed");
    assertThat(elsewhere.at("/node_log/1/error").asString())
        .isEqualTo(
            "the url's values would move the call from "
                + origin
                + " to http://evil.example:80 (through {{trigger.path}}): a value fills the path or"
                + " the query, it does not change where the call goes");
    assertThat(up.get("status").asString()).as(up.toString()).isEqualTo("failed");
    assertThat(up.at("/node_log/1/error").asString())
        .isEqualTo(
            "the url's path holds the segment '..', which would reach another path than the one"
                + " written: "
                + peer.url("/api/orders/../status"));
    assertThat(peer.received()).isEmpty();

    // the same flow with a value that stays in its segment calls
    JsonNode fine =
        awaitRun(
            tenant.api(), fire(anonymous(), tenant.id(), moved, Map.of("path", "/api/orders/7")));
    assertThat(fine.get("status").asString()).as(fine.toString()).isEqualTo("completed");
    assertThat(peer.received().get(0).target()).isEqualTo("/api/orders/7");
  }

  @Test
  void serverErrorsAreRetriedWithTheSameIdempotencyKeyAndLoggedOnce() {
    peer.answerOnce("/flaky", 503, "{\"busy\": true}", Map.of());
    peer.answerOnce("/flaky", 500, "{}", Map.of());
    peer.answer("/flaky", 200, "{\"done\": true}");
    String hook = automationCalling(peer.url("/flaky"));

    JsonNode run = run(hook);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    List<LocalHttpServer.Received> calls = peer.received("/flaky");
    assertThat(calls).hasSize(3);
    String runId = run.get("id").asString();
    assertThat(calls)
        .allSatisfy(
            c ->
                assertThat(c.header("Idempotency-Key"))
                    .isEqualTo(causeHeader.idempotencyKey(tenant.id(), runId + ":call")));
    // backoff: 1 s, then 2 s
    assertThat(Duration.between(calls.get(0).at(), calls.get(1).at()))
        .isGreaterThan(Duration.ofMillis(900));
    assertThat(Duration.between(calls.get(1).at(), calls.get(2).at()))
        .isGreaterThan(Duration.ofMillis(1900));
    JsonNode log = run.get("node_log");
    assertThat(log.valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactly(hook, "call");
    assertThat(log.get(1).at("/output/statusCode").asInt()).isEqualTo(200);
    assertThat(log.get(1).at("/output/body/done").asBoolean()).isTrue();
  }

  /**
   * What a third party learns from a run's call: an Idempotency-Key, the same on each attempt, and
   * a CRM-Cause token, neither naming the run; the trace's traceparent, but not the tracestate or
   * baggage the trigger's caller sent.
   */
  @Test
  void aThirdPartyLearnsNeitherTheRunNorWhatTheTriggersCallerPutInTheTrace() {
    peer.answerOnce("/partner", 503, "{}", Map.of());
    peer.answer("/partner", 200, "{}");
    String hook =
        automation(
            node(
                "call",
                "http_request",
                Map.of(
                    "method",
                    "POST",
                    "url",
                    peer.url("/partner"),
                    "headers",
                    Map.of("CRM-Cause", "mine", "X-Kept", "as set"))));
    String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";

    String runId =
        fire(
            anonymous()
                .withHeader("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
                .withHeader("tracestate", "caller=t61rcWkgMzE,other=secret")
                .withHeader("baggage", "user=ada@example.com"),
            tenant.id(),
            hook,
            Map.of("n", 1));
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    List<LocalHttpServer.Received> calls = peer.received("/partner");
    assertThat(calls).hasSize(2);
    for (LocalHttpServer.Received call : calls) {
      assertThat(call.header("Idempotency-Key"))
          .isEqualTo(causeHeader.idempotencyKey(tenant.id(), runId + ":call"))
          .matches("[A-Za-z0-9_-]{43}");
      // the service's own token, which only it reads
      assertThat(causeHeader.read(tenant.id(), call.header("CRM-Cause")))
          .contains(new CauseHeader.Cause(UUID.fromString(runId), "call"));
      assertThat(causeHeader.read(UUID.randomUUID(), call.header("CRM-Cause"))).isEmpty();
      assertThat(call.headers().values().stream().flatMap(List::stream))
          .noneMatch(value -> value.contains(runId))
          .noneMatch(value -> value.contains("secret") || value.contains("ada@example.com"));
      assertThat(call.header("tracestate")).isNull();
      assertThat(call.header("baggage")).isNull();
      assertThat(call.header("traceparent")).startsWith("00-" + traceId + "-");
      assertThat(call.header("X-Kept")).isEqualTo("as set");
    }
    // a token for each attempt
    assertThat(calls.get(0).header("CRM-Cause")).isNotEqualTo(calls.get(1).header("CRM-Cause"));
  }

  @Test
  void aRefusedConnectionIsRetriedUntilThePeerIsUp() throws Exception {
    RefusedPort outage = new RefusedPort();
    int port = outage.port();
    String hook = automationCalling("http://127.0.0.1:" + port + "/late");
    String runId = fire(anonymous(), tenant.id(), hook, Map.of());
    // nothing listens for 1.5 s: the first attempt (right after the start) is refused, and the
    // peer comes up during the backoff
    await()
        .during(Duration.ofMillis(1500))
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                tenant
                    .api()
                    .get("/api/v1/automation-runs/" + runId)
                    .text("/run/status")
                    .equals("running"));
    outage.close();
    try (LocalHttpServer late = new LocalHttpServer(port)) {
      JsonNode run = awaitRun(tenant.api(), runId);

      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      assertThat(late.received("/late")).hasSize(1);
      // the node spans at least one backoff: it was refused before it got through
      JsonNode call = run.get("node_log").get(1);
      assertThat(
              Duration.between(
                  Instant.parse(call.get("startedAt").asString()),
                  Instant.parse(call.get("completedAt").asString())))
          .isGreaterThan(Duration.ofMillis(900));
    }
  }

  @Test
  void tooManyRequestsWaitsForRetryAfter() {
    peer.answerOnce("/limited", 429, "{}", Map.of("Retry-After", "3"));
    peer.answer("/limited", 200, "{}");
    String hook = automationCalling(peer.url("/limited"));

    JsonNode run = run(hook);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    List<LocalHttpServer.Received> calls = peer.received("/limited");
    assertThat(calls).hasSize(2);
    // Retry-After 3 s, not the 1 s backoff
    assertThat(Duration.between(calls.get(0).at(), calls.get(1).at()))
        .isGreaterThan(Duration.ofMillis(2900));
  }

  @Test
  void aClientErrorFailsTheNodeAtOnce() {
    peer.answer("/gone", 410, "{\"error\": \"gone\"}");
    String hook = automationCalling(peer.url("/gone"));

    JsonNode run = run(hook);

    assertThat(run.get("status").asString()).isEqualTo("failed");
    assertThat(run.get("error").asString()).contains("call", "HTTP 410", "gone");
    assertThat(peer.received("/gone")).hasSize(1);
    JsonNode call = run.get("node_log").get(1);
    assertThat(call.get("status").asString()).isEqualTo("failed");
    assertThat(call.get("error").asString()).contains("HTTP 410");
  }

  @Test
  void anAnswerOverOneMebibyteFailsTheNodeAtOnce() {
    peer.answer("/huge", 200, "\"" + "x".repeat(1024 * 1024 + 10) + "\"");
    String hook = automationCalling(peer.url("/huge"));

    JsonNode run = run(hook);

    assertThat(run.get("status").asString()).isEqualTo("failed");
    assertThat(run.get("error").asString()).contains("larger than 1048576 bytes");
    assertThat(peer.received("/huge")).hasSize(1);
  }

  @Test
  void aNulCharacterInAnAnswerIsStoredAsAReplacementCharacterNotAStuckRun() {
    // JSON may escape U+0000, which PostgreSQL cannot store in text or jsonb
    peer.answer("/nul", 200, "{\"name\": \"Ada\\u0000Lovelace\", \"k\\u0000\": 1}");
    peer.answer("/nul-error", 422, "broken" + (char) 0);
    String hook =
        automation(
            node("call", "http_request", Map.of("method", "POST", "url", peer.url("/nul"))),
            node(
                "use",
                "data_transform",
                Map.of(
                    "transformType",
                    "map",
                    "mappings",
                    Map.of("name", "{{http_request_1.body.name}}"))),
            node(
                "store",
                "crm_update",
                Map.of(
                    "entityType",
                    "contact",
                    "fieldMappings",
                    Map.of("title", "{{http_request_1.body.name}}"))));
    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "ada@example.com"))
            .text("/contact/id");

    JsonNode run =
        awaitRun(
            tenant.api(), fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId)));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    JsonNode body = run.at("/node_log/1/output/body");
    assertThat(body.get("name").asString()).isEqualTo("Ada\uFFFDLovelace");
    assertThat(body.has("k\uFFFD")).isTrue();
    assertThat(run.at("/node_log/2/output/name").asString()).isEqualTo("Ada\uFFFDLovelace");
    // replaced as the answer came in, so a later node can write it to a CRM record
    assertThat(tenant.api().get("/api/v1/contacts/" + contactId).text("/contact/title"))
        .isEqualTo("Ada\uFFFDLovelace");

    // a raw NUL byte, quoted from an answer in the node's error, which the run's error repeats
    JsonNode failed =
        awaitRun(
            tenant.api(),
            fire(anonymous(), tenant.id(), automationCalling(peer.url("/nul-error")), Map.of()));
    assertThat(failed.get("status").asString()).as(failed.toString()).isEqualTo("failed");
    assertThat(failed.get("error").asString()).contains("HTTP 422", "broken\uFFFD");
  }
}
