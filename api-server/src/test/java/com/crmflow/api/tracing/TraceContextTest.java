package com.crmflow.api.tracing;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * W3C trace context through the embedded service: a caller's traceparent is continued by the run
 * (its trace_id) and by the run's outbound call (its traceparent); without one, the run's trace
 * starts at the trigger; problem answers name the request's trace.
 */
class TraceContextTest extends ApiTest {

  private static final String TRACEPARENT = "00-%s-%s-01";

  private LocalHttpServer peer;
  private TenantClient tenant;

  @BeforeEach
  void setUp() {
    peer = new LocalHttpServer();
    tenant = newTenant();
  }

  @AfterEach
  void tearDown() {
    peer.close();
  }

  private String automationCalling(String path) {
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(hook, node("call", "http_request", Map.of("method", "POST", "url", peer.url(path)))));
    return hook;
  }

  private static String hex(int digits) {
    String random = UUID.randomUUID().toString().replace("-", "");
    return (random + random).substring(0, digits);
  }

  @Autowired MeterRegistry meters;

  @Test
  void withNoSpanExportedNoSqlStatementIsObserved() {
    peer.answer("/unobserved", 200, "{}");
    String hook = automationCalling("/unobserved");

    // a traced trigger: its statements and its run's would be spans of its trace if any left
    String traceId = hex(32);
    String runId =
        fire(
            anonymous().withHeader("traceparent", TRACEPARENT.formatted(traceId, hex(16))),
            tenant.id(),
            hook,
            Map.of("n", 1));
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(peer.received("/unobserved")).hasSize(1);
    // no OTLP endpoint in this service: no JDBC observation (SqlSpans), so none was ever timed
    assertThat(meters.find("jdbc.query").meters()).isEmpty();
    assertThat(meters.find("jdbc.query.active").meters()).isEmpty();
    // the trace context itself goes on: the run and its call carry the caller's trace
    assertThat(run.get("trace_id").asString()).isEqualTo(traceId);
    assertThat(peer.received("/unobserved").get(0).header("traceparent")).contains(traceId);
  }

  @Test
  void aCallersTraceparentIsContinuedByTheRunAndItsOutboundCall() {
    peer.answer("/traced", 200, "{}");
    String hook = automationCalling("/traced");
    String traceId = hex(32);
    String callerSpan = hex(16);

    String runId =
        fire(
            anonymous().withHeader("traceparent", TRACEPARENT.formatted(traceId, callerSpan)),
            tenant.id(),
            hook,
            Map.of("n", 1));
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.get("trace_id").asString()).isEqualTo(traceId);
    List<LocalHttpServer.Received> calls = peer.received("/traced");
    assertThat(calls).hasSize(1);
    String sent = calls.get(0).header("traceparent");
    assertThat(sent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
    assertThat(sent.split("-")[1]).isEqualTo(traceId);
    // the outbound call is a span of its own, a descendant of the caller's
    assertThat(sent.split("-")[2]).isNotEqualTo(callerSpan);
    ApiResponse stored = tenant.api().get("/api/v1/automation-runs/" + runId);
    assertThat(stored.text("/run/trace_id")).isEqualTo(traceId);
    // each node names the span it ran in: the trigger its request's (a child of the caller's),
    // the call the workflow task's
    JsonNode log = stored.at("/run/node_log");
    assertThat(log.get(0).get("spanId").asString())
        .matches("[0-9a-f]{16}")
        .isNotEqualTo(callerSpan);
    assertThat(log.get(1).get("spanId").asString())
        .matches("[0-9a-f]{16}")
        .isNotEqualTo(log.get(0).get("spanId").asString());
    assertThat(
            jdbc.sql("select span_id from run_node_log where run_id = :id and seq = 2")
                .param("id", UUID.fromString(runId))
                .query(String.class)
                .single())
        .isEqualTo(log.get(1).get("spanId").asString());
    assertThat(
            jdbc.sql("select trace_id from automation_run where id = :id")
                .param("id", UUID.fromString(runId))
                .query(String.class)
                .single())
        .isEqualTo(traceId);
  }

  @Test
  void withoutATraceparentTheRunsTraceStartsAtTheTrigger() {
    peer.answer("/untraced", 200, "{}");
    String hook = automationCalling("/untraced");

    String runId = fire(anonymous(), tenant.id(), hook, Map.of("n", 2));
    JsonNode run = awaitRun(tenant.api(), runId);

    String traceId = run.get("trace_id").asString();
    assertThat(traceId).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
    String sent = peer.received("/untraced").get(0).header("traceparent");
    assertThat(sent).isNotNull();
    assertThat(sent.split("-")[1]).isEqualTo(traceId);
  }

  @Test
  void aProblemAnswerNamesTheRequestsTrace() {
    String traceId = hex(32);

    ApiResponse refused =
        tenant
            .api()
            .withHeader("traceparent", TRACEPARENT.formatted(traceId, hex(16)))
            .get("/api/v1/automation-runs/not-a-run-id");

    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.text("/trace_id")).isEqualTo(traceId);
  }
}
