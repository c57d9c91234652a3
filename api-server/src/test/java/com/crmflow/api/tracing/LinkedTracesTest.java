package com.crmflow.api.tracing;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.HttpsReceiver;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.SequenceSupport;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Runs that start on their own (a CRM event's, an enrollment's, a schedule's fire, a webhook
 * delivery) trace on their own: the run's trace is a new one, not the trace of the request that
 * caused it, and its root span links to the request's span. The service's spans are read from an
 * in-memory exporter beside its own; the OTLP exporter of the standard setting sends them to a
 * receiver on loopback as well. GET /api/v1/me names the tracing UI configured
 * (crm.tracing.ui-url), which the console links. A node's log entry names the span that did its
 * work.
 */
// a configuration of its own: its service stops after the class instead of idling beside the others
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Import(LinkedTracesTest.Spans.class)
@TestPropertySource(
    properties = {
      "management.tracing.sampling.probability=1.0",
      "crm.tracing.ui-url=http://127.0.0.1:9411/zipkin/traces/{trace_id}"
    })
class LinkedTracesTest extends ApiTest {

  @TestConfiguration(proxyBeanMethods = false)
  static class Spans {
    @Bean
    InMemorySpanExporter inMemorySpans() {
      return InMemorySpanExporter.create();
    }
  }

  @Autowired InMemorySpanExporter spans;

  /** The webhook receiver: HTTPS with a self-signed certificate the service trusts. */
  private static final HttpsReceiver RECEIVER = new HttpsReceiver();

  /** An OTLP/HTTP collector's address: what it receives is kept. */
  private static final LocalHttpServer COLLECTOR = new LocalHttpServer();

  @DynamicPropertySource
  static void receiver(DynamicPropertyRegistry registry) {
    registry.add("crm.http.trusted-certificates", () -> RECEIVER.certificatePem().toString());
    COLLECTOR.answer("/v1/traces", 200, "");
    registry.add(
        "management.opentelemetry.tracing.export.otlp.endpoint", () -> COLLECTOR.url("/v1/traces"));
    registry.add("management.opentelemetry.tracing.export.schedule-delay", () -> "100ms");
  }

  @AfterAll
  static void stopReceivers() {
    RECEIVER.close();
    COLLECTOR.close();
  }

  @Test
  void meNamesTheTracingUiWhereARunsTraceOpens() {
    assertThat(tenant.api().get("/api/v1/me").text("/trace_ui_url"))
        .isEqualTo("http://127.0.0.1:9411/zipkin/traces/{trace_id}");
  }

  @Test
  void spansGoToTheOtlpEndpointOfTheStandardSetting() {
    String marker = "/api/v1/contacts/" + UUID.randomUUID();
    assertThat(tenant.api().get(marker).status()).isEqualTo(404);

    // OTLP/HTTP protobuf: the strings (span names, attributes, the resource) travel as UTF-8
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                COLLECTOR.received("/v1/traces").stream()
                    .anyMatch(
                        r ->
                            r.method().equals("POST")
                                && "application/x-protobuf".equals(r.header("Content-Type"))
                                && r.body().contains("crm-api-server")
                                && r.body().contains(marker)));
  }

  @Test
  void aRequestsSqlStatementsAreSpansOfItsTraceWhenSpansAreExported() {
    String traceId = traceId();
    String contact = "/api/v1/contacts/" + UUID.randomUUID();

    assertThat(tracedAs(tenant.api(), traceId, traceId.substring(16)).get(contact).status())
        .isEqualTo(404);

    // the OTLP endpoint is set (see receiver): the JDBC observations are on (SqlSpans)
    SpanData request =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () ->
                    spans.getFinishedSpanItems().stream()
                        .filter(s -> s.getTraceId().equals(traceId))
                        .filter(s -> s.getParentSpanId().equals(traceId.substring(16)))
                        .findFirst()
                        .orElse(null),
                span -> span != null);
    assertThat(spans.getFinishedSpanItems())
        .anySatisfy(
            s -> {
              assertThat(s.getName()).isEqualTo("query");
              assertThat(s.getTraceId()).isEqualTo(traceId);
              assertThat(s.getParentSpanId()).isEqualTo(request.getSpanId());
            });
  }

  private TenantClient tenant;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
  }

  private static String traceId() {
    return UUID.randomUUID().toString().replace("-", "");
  }

  private static ApiClient tracedAs(ApiClient api, String traceId, String spanId) {
    return api.withHeader("traceparent", "00-" + traceId + "-" + spanId + "-01");
  }

  /** The run's root span in the exporter: named so, in the run's trace, linked to the cause. */
  private SpanData linkedRoot(String name, String runTraceId) {
    return await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                spans.getFinishedSpanItems().stream()
                    .filter(s -> s.getName().equals(name))
                    .filter(s -> s.getTraceId().equals(runTraceId))
                    .findFirst()
                    .orElse(null),
            span -> span != null);
  }

  @Test
  void anHttpRequestsEntryNamesTheSpanOfItsActivityTheParentOfItsCall() {
    LocalHttpServer peer = new LocalHttpServer();
    try (peer) {
      peer.answer("/spanned", 200, "{}");
      String hook = "hook-" + UUID.randomUUID();
      activeAutomation(
          tenant.api(),
          canvas(
              List.of(
                  node(hook, "webhook_trigger", Map.of()),
                  node(
                      "plan",
                      "condition",
                      Map.of("field", "{{trigger.plan}}", "operator", "equals", "value", "pro")),
                  node(
                      "call",
                      "http_request",
                      Map.of("method", "POST", "url", peer.url("/spanned")))),
              List.of(edge("e1", hook, "plan"), edge("e2", "plan", "call", "true"))));
      String traceId = traceId();

      String runId =
          SequenceSupport.fire(
              tracedAs(anonymous(), traceId, traceId.substring(16)),
              tenant.id(),
              hook,
              Map.of("plan", "pro"));
      JsonNode run = awaitRun(tenant.api(), runId);

      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      String callSpan = run.at("/node_log/2/spanId").asString();
      String conditionSpan = run.at("/node_log/1/spanId").asString();
      assertThat(callSpan).matches("[0-9a-f]{16}");
      // the condition ran in workflow code: its entry names the workflow task's span
      assertThat(conditionSpan).matches("[0-9a-f]{16}").isNotEqualTo(callSpan);
      String sent = peer.received("/spanned").get(0).header("traceparent");
      String outboundSpan = sent.split("-")[2];
      SpanData activity = finished(traceId, callSpan);
      assertThat(activity.getName()).isEqualTo("RunActivity:http_request");
      assertThat(finished(traceId, outboundSpan).getParentSpanId()).isEqualTo(callSpan);
      assertThat(
              jdbc.sql("select span_id from run_node_log where run_id = :id and seq = 3")
                  .param("id", UUID.fromString(runId))
                  .query(String.class)
                  .single())
          .isEqualTo(callSpan);
    }
  }

  @Test
  void aFailedCallsEntryNamesTheSpanOfTheAttemptThatFailed() {
    LocalHttpServer peer = new LocalHttpServer();
    try (peer) {
      peer.answer("/refusing", 400, "{\"error\": \"no\"}");
      String hook = "hook-" + UUID.randomUUID();
      activeAutomation(
          tenant.api(),
          canvas(
              List.of(
                  node(hook, "webhook_trigger", Map.of()),
                  node(
                      "call",
                      "http_request",
                      Map.of("method", "POST", "url", peer.url("/refusing")))),
              List.of(edge("e1", hook, "call"))));
      String traceId = traceId();

      String runId =
          SequenceSupport.fire(
              tracedAs(anonymous(), traceId, traceId.substring(16)), tenant.id(), hook, Map.of());
      JsonNode run = awaitRun(tenant.api(), runId);

      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("failed");
      JsonNode entry = run.at("/node_log/1");
      assertThat(entry.get("error").asString()).startsWith("HTTP 400 from 127.0.0.1");
      String callSpan = entry.get("spanId").asString();
      assertThat(finished(traceId, callSpan).getName()).isEqualTo("RunActivity:http_request");
      String sent = peer.received("/refusing").get(0).header("traceparent");
      assertThat(finished(traceId, sent.split("-")[2]).getParentSpanId()).isEqualTo(callSpan);
    }
  }

  /** The span of this trace with this id, once the exporter has it. */
  private SpanData finished(String traceId, String spanId) {
    return await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                spans.getFinishedSpanItems().stream()
                    .filter(s -> s.getTraceId().equals(traceId) && s.getSpanId().equals(spanId))
                    .findFirst()
                    .orElse(null),
            span -> span != null);
  }

  @Test
  void anEventsRunTracesOnItsOwnLinkedToTheWriteThatCausedIt() {
    String trigger = "on-created-" + UUID.randomUUID();
    String sequenceId =
        activeAutomation(
            tenant.api(),
            canvas(
                List.of(
                    node(trigger, "crm_event_trigger", Map.of("eventType", "contact.created")),
                    node("wait", "delay", Map.of("delayHours", 1.0 / 3600))),
                List.of(edge("e1", trigger, "wait"))));
    String writeTrace = traceId();
    String writeSpan = writeTrace.substring(0, 16);

    ApiResponse created =
        tracedAs(tenant.api(), writeTrace, writeSpan)
            .post("/api/v1/contacts", Map.of("email", "linked@example.com"));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);

    UUID runId =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () ->
                    jdbc.sql("select id from automation_run where sequence_id = :s")
                        .param("s", UUID.fromString(sequenceId))
                        .query(UUID.class)
                        .optional()
                        .orElse(null),
                id -> id != null);
    JsonNode run = awaitRun(tenant.api(), runId.toString());
    String runTrace = run.get("trace_id").asString();
    assertThat(runTrace).matches("[0-9a-f]{32}").isNotEqualTo(writeTrace);
    SpanData root = linkedRoot("crm event contact.created", runTrace);
    assertThat(root.getParentSpanContext().isValid()).isFalse();
    assertThat(root.getLinks())
        .extracting(LinkData::getSpanContext)
        .anySatisfy(
            cause -> {
              assertThat(cause.getTraceId()).isEqualTo(writeTrace);
              // the write's span on this side: the request's server span, a child of the caller's
              assertThat(cause.getSpanId()).isNotEqualTo("0".repeat(16));
            });
    // the run's workflow start is a span of the run's trace
    assertThat(
            spans.getFinishedSpanItems().stream()
                .filter(s -> s.getTraceId().equals(runTrace))
                .map(SpanData::getName))
        .contains("StartWorkflow:AutomationRunWorkflow");
  }

  @Test
  void aWebhookDeliveryCarriesATraceparentOfItsOwnTraceLinkedToTheWrite() {
    RECEIVER.answer("/delivered", 200);
    ApiResponse subscribed =
        tenant
            .api()
            .post(
                "/api/v1/webhooks/subscribe",
                Map.of("url", RECEIVER.url("/delivered"), "events", List.of("contact.created")));
    assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
    String writeTrace = traceId();

    ApiResponse created =
        tracedAs(tenant.api(), writeTrace, writeTrace.substring(16))
            .post("/api/v1/contacts", Map.of("email", "delivered@example.com"));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);

    String traceparent =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () ->
                    RECEIVER.received("/delivered").stream()
                        .map(r -> r.header("traceparent"))
                        .findFirst()
                        .orElse(null),
                header -> header != null);
    assertThat(traceparent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    String deliveryTrace = traceparent.split("-")[1];
    assertThat(deliveryTrace).isNotEqualTo(writeTrace);
    SpanData root = linkedRoot("webhook delivery contact.created", deliveryTrace);
    assertThat(root.getLinks())
        .extracting(link -> link.getSpanContext().getTraceId())
        .containsExactly(writeTrace);
  }

  /**
   * A schedule's fire on the Temporal server's own timer: the run it starts has a trace of its own,
   * whose root span links to the schedule workflow's activity that fired it, a span of the trace of
   * the request that activated the schedule. Takes up to a minute (the schedule fires each minute).
   */
  @Test
  void aScheduledRunTracesOnItsOwnLinkedToTheRequestThatActivatedTheSchedule() {
    String clock = "minutely-" + UUID.randomUUID();
    String activationTrace = traceId();
    String sequenceId =
        activeAutomation(
            tracedAs(tenant.api(), activationTrace, activationTrace.substring(16)),
            canvas(
                List.of(
                    node(
                        clock,
                        "schedule_trigger",
                        Map.of(
                            "scheduleType",
                            "custom",
                            "customCron",
                            "* * * * *",
                            "time",
                            "00:00",
                            "timezone",
                            "Europe/Berlin")),
                    node("wait", "delay", Map.of("delayHours", 1.0 / 3600))),
                List.of(edge("e1", clock, "wait"))));

    String runId =
        await()
            .atMost(Patience.EVENTUALLY)
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () ->
                    jdbc.sql(
                            "select id::text from automation_run where sequence_id = :s"
                                + " order by created_at limit 1")
                        .param("s", UUID.fromString(sequenceId))
                        .query(String.class)
                        .optional()
                        .orElse(null),
                id -> id != null);
    assertThat(
            tenant
                .api()
                .patch("/api/v1/sequences/" + sequenceId, Map.of("status", "paused"))
                .status())
        .isEqualTo(200);
    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("trigger_node_id").asString()).isEqualTo(clock);
    String runTrace = run.get("trace_id").asString();
    assertThat(runTrace).matches("[0-9a-f]{32}").isNotEqualTo(activationTrace);
    SpanData root = linkedRoot("schedule fire", runTrace);
    assertThat(root.getParentSpanContext().isValid()).isFalse();
    assertThat(root.getLinks()).hasSize(1);
    SpanContext cause = root.getLinks().get(0).getSpanContext();
    assertThat(cause.getTraceId()).isEqualTo(activationTrace);
    // the cause is the fire's activity, in the schedule workflow the activation started
    SpanData fire =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () ->
                    spans.getFinishedSpanItems().stream()
                        .filter(s -> s.getSpanId().equals(cause.getSpanId()))
                        .findFirst()
                        .orElse(null),
                span -> span != null);
    assertThat(fire.getTraceId()).isEqualTo(activationTrace);
    assertThat(fire.getName()).isEqualTo("RunActivity:start_scheduled_run");
    assertThat(
            spans.getFinishedSpanItems().stream()
                .filter(s -> s.getTraceId().equals(activationTrace))
                .map(SpanData::getName))
        .contains("StartWorkflow:ScheduleTriggerWorkflow");
    // the run's workflow start is a span of the run's trace
    assertThat(
            spans.getFinishedSpanItems().stream()
                .filter(s -> s.getTraceId().equals(runTrace))
                .map(SpanData::getName))
        .contains("StartWorkflow:AutomationRunWorkflow");
  }

  @Test
  void anEnrollmentsRunTracesOnItsOwnLinkedToTheEnrollingRequest() {
    String sequenceId = sequence(tenant.api(), "Linked " + UUID.randomUUID());
    assertThat(
            tenant
                .api()
                .put(
                    "/api/sequences/" + sequenceId + "/canvas",
                    canvas(
                        List.of(node("wait", "delay", Map.of("delayHours", 1.0 / 3600))),
                        List.of()))
                .status())
        .isEqualTo(200);
    assertThat(
            tenant
                .api()
                .patch("/api/v1/sequences/" + sequenceId, Map.of("status", "active"))
                .status())
        .isEqualTo(200);
    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "enrolled@example.com"))
            .text("/contact/id");
    String requestTrace = traceId();

    ApiResponse enrolled =
        tracedAs(tenant.api(), requestTrace, requestTrace.substring(16))
            .post(
                "/api/v1/sequences/enroll",
                Map.of("sequence_id", sequenceId, "contact_id", contactId));
    assertThat(enrolled.status()).as(enrolled.toString()).isEqualTo(201);

    String runId =
        jdbc.sql("select id::text from automation_run where sequence_id = :s")
            .param("s", UUID.fromString(sequenceId))
            .query(String.class)
            .single();
    JsonNode run = awaitRun(tenant.api(), runId);
    String runTrace = run.get("trace_id").asString();
    assertThat(runTrace).matches("[0-9a-f]{32}").isNotEqualTo(requestTrace);
    SpanData root = linkedRoot("enrollment", runTrace);
    assertThat(root.getLinks())
        .extracting(link -> link.getSpanContext().getTraceId())
        .containsExactly(requestTrace);
  }
}
