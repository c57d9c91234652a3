package com.crmflow.api.testrun;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.completeSequence;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.automation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A test run on the real engine: each node that acts shows what it would do, and does nothing. */
class TestRunApiTest extends ApiTest {

  private final LocalHttpServer receiver = new LocalHttpServer();

  @AfterEach
  void closeReceiver() {
    receiver.close();
  }

  private String contact(ApiClient api, String email) {
    return api.post(
            "/api/v1/contacts",
            Map.of("email", email, "first_name", "Ada", "lifecycle_stage", "lead"))
        .text("/contact/id");
  }

  /** email → delay 2 days → http_request to the receiver → crm_update of the contact. */
  private String draftFlow(ApiClient api, String hook) {
    Map<String, Object> headers = new HashMap<>();
    headers.put("Authorization", "Bearer s3cret-token");
    headers.put("X-Plan", "{{trigger.plan}}");
    String flow = automation(api, "Nurture " + hook);
    ApiResponse saved =
        api.put(
            "/api/sequences/" + flow + "/canvas",
            chain(
                hook,
                node(
                    "mail",
                    "email",
                    Map.of(
                        "subject", "Hi {{contact.first_name}}", "body", "Plan {{trigger.plan}}")),
                node("wait", "delay", Map.of("delayDays", 2)),
                node(
                    "call",
                    "http_request",
                    http(
                        "POST",
                        receiver.url("/hook"),
                        "headers",
                        headers,
                        "bodyTemplate",
                        "{\"plan\": \"{{trigger.plan}}\"}")),
                node(
                    "stage",
                    "crm_update",
                    Map.of(
                        "entityType",
                        "contact",
                        "fieldMappings",
                        Map.of("lifecycle_stage", "customer")))));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    return flow;
  }

  private static JsonNode entry(JsonNode run, String nodeId) {
    for (JsonNode entry : run.get("node_log")) {
      if (nodeId.equals(entry.get("nodeId").asString())) {
        return entry;
      }
    }
    throw new AssertionError("no entry of " + nodeId + " in " + run);
  }

  @Test
  void aTestRunOfADraftShowsWhatEachNodeWouldDoAndDoesNothing() {
    TenantClient tenant = newTenant();
    receiver.answer("/hook", 200, "{}");
    String contactId = contact(tenant.api(), "ada-" + UUID.randomUUID() + "@example.com");
    String flow = draftFlow(tenant.api(), uniqueId("hook"));

    ApiResponse started =
        tenant
            .api()
            .post(
                "/api/v1/sequences/" + flow + "/test-runs",
                Map.of("contact_id", contactId, "payload", Map.of("plan", "pro")));

    assertThat(started.status()).as(started.toString()).isEqualTo(201);
    String runId = started.text("/run_id");
    assertThat(started.text("/run/id")).isEqualTo(runId);
    assertThat(started.at("/run/test").asBoolean()).isTrue();
    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.get("test").asBoolean()).isTrue();
    assertThat(run.at("/trigger_payload/plan").asString()).isEqualTo("pro");
    // the delay of 2 days is not waited
    assertThat(
            Duration.between(
                OffsetDateTime.parse(run.get("created_at").asString()),
                OffsetDateTime.parse(run.get("completed_at").asString())))
        .isLessThan(Duration.ofSeconds(60));

    JsonNode email = entry(run, "mail").get("output");
    assertThat(email.get("dry_run").asBoolean()).as(email.toString()).isTrue();
    assertThat(email.get("to").asString()).startsWith("ada-");
    assertThat(email.get("subject").asString()).isEqualTo("Hi Ada");
    assertThat(email.get("body").asString()).isEqualTo("Plan pro");
    assertThat(email.has("messageId")).isFalse();

    JsonNode delay = entry(run, "wait");
    assertThat(delay.get("status").asString()).isEqualTo("completed");
    assertThat(delay.at("/output/dry_run").asBoolean()).isTrue();
    assertThat(delay.at("/output/would_wait").asString()).isEqualTo("2 days");
    assertThat(delay.at("/output/would_wait_seconds").asLong()).isEqualTo(2 * 24 * 3600);

    JsonNode call = entry(run, "call").get("output");
    assertThat(call.get("dry_run").asBoolean()).as(call.toString()).isTrue();
    assertThat(call.get("method").asString()).isEqualTo("POST");
    assertThat(call.get("url").asString()).isEqualTo(receiver.url("/hook"));
    assertThat(call.at("/headers/X-Plan").asString()).isEqualTo("pro");
    assertThat(call.at("/headers/Authorization").asString()).isEqualTo("********");
    assertThat(call.get("body").asString()).isEqualTo("{\"plan\": \"pro\"}");
    assertThat(call.has("statusCode")).isFalse();

    JsonNode write = entry(run, "stage").get("output");
    assertThat(write.get("dry_run").asBoolean()).as(write.toString()).isTrue();
    assertThat(write.get("entity_type").asString()).isEqualTo("contact");
    assertThat(write.get("id").asString()).isEqualTo(contactId);
    assertThat(write.at("/fields/lifecycle_stage").asString()).isEqualTo("customer");

    // nothing went out, nothing was written
    assertThat(receiver.received()).isEmpty();
    assertThat(tenant.api().get("/api/v1/outbound-emails?run_id=" + runId).at("/total").asInt())
        .isZero();
    assertThat(
            tenant
                .api()
                .get("/api/v1/contacts/" + contactId)
                .at("/contact/lifecycle_stage")
                .asString())
        .isEqualTo("lead");
    assertThat(started.rawBody() + run.toString()).doesNotContain("s3cret-token");
    // and the flow's counts per node hold no trace of it
    ApiResponse stats = tenant.api().get("/api/sequences/" + flow + "/stats");
    assertThat(stats.status()).as(stats.toString()).isEqualTo(200);
    assertThat(stats.json().at("/versions/0/nodes").valueStream())
        .as(stats.toString())
        .isNotEmpty()
        .allSatisfy(
            node ->
                assertThat(node.get("passed").asLong() + node.get("waiting").asLong()).isZero());

    // kept apart from the runs that acted
    ApiResponse listed = tenant.api().get("/api/v1/automation-runs?sequence_id=" + flow);
    assertThat(listed.at("/total").asInt()).as(listed.toString()).isZero();
    ApiResponse tests =
        tenant.api().get("/api/v1/automation-runs?sequence_id=" + flow + "&test=true");
    assertThat(tests.at("/total").asInt()).isEqualTo(1);
    assertThat(tests.text("/runs/0/id")).isEqualTo(runId);
    assertThat(tenant.api().get("/api/v1/sequences/" + flow).at("/sequence/last_run_at").isNull())
        .isTrue();

    // a draft that only ever test-ran deletes, its test runs with it
    ApiResponse deleted = tenant.api().delete("/api/v1/sequences/" + flow);
    assertThat(deleted.status()).as(deleted.toString()).isEqualTo(200);
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).status()).isEqualTo(404);
  }

  @Test
  void aTestRunOfOneNodeRunsThatNodeAlone() {
    TenantClient tenant = newTenant();
    String contactId = contact(tenant.api(), "one-" + UUID.randomUUID() + "@example.com");
    String flow = draftFlow(tenant.api(), uniqueId("hook"));

    ApiResponse started =
        tenant
            .api()
            .post(
                "/api/v1/sequences/" + flow + "/test-runs",
                Map.of(
                    "contact_id", contactId, "payload", Map.of("plan", "team"), "node_id", "call"));

    assertThat(started.status()).as(started.toString()).isEqualTo(201);
    JsonNode run = awaitRun(tenant.api(), started.text("/run_id"));
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.get("start_node_id").asString()).isEqualTo("call");
    List<String> ran =
        run.get("node_log").valueStream().map(e -> e.get("nodeId").asString()).toList();
    assertThat(ran).containsExactly("call");
    assertThat(entry(run, "call").at("/output/headers/X-Plan").asString()).isEqualTo("team");
    assertThat(receiver.received()).isEmpty();
  }

  @Test
  void aTestRunOfASequenceStartsAtItsFirstStepAndEnrollsNoOne() {
    TenantClient tenant = newTenant();
    String contactId = contact(tenant.api(), "seq-" + UUID.randomUUID() + "@example.com");
    String flow = sequence(tenant.api(), "Onboarding " + UUID.randomUUID());
    assertThat(tenant.api().put("/api/sequences/" + flow + "/canvas", completeSequence()).status())
        .isEqualTo(200);

    ApiResponse started =
        tenant
            .api()
            .post("/api/v1/sequences/" + flow + "/test-runs", Map.of("contact_id", contactId));

    assertThat(started.status()).as(started.toString()).isEqualTo(201);
    JsonNode run = awaitRun(tenant.api(), started.text("/run_id"));
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.get("start_node_id").asString()).isEqualTo("hello");
    assertThat(entry(run, "hello").at("/output/subject").asString()).isEqualTo("Hello Ada");
    assertThat(entry(run, "again").at("/output/dry_run").asBoolean()).isTrue();
    assertThat(run.get("enrollment_id").isNull()).isTrue();
    assertThat(
            tenant
                .api()
                .get("/api/v1/sequences/" + flow + "/enrollments")
                .at("/enrollments")
                .size())
        .isZero();
    assertThat(
            tenant
                .api()
                .get("/api/v1/outbound-emails?run_id=" + started.text("/run_id"))
                .at("/total")
                .asInt())
        .isZero();
  }

  @Test
  void aFailedTestRunIsNotRetried() {
    TenantClient tenant = newTenant();
    String contactId = contact(tenant.api(), "fail-" + UUID.randomUUID() + "@example.com");
    String hook = uniqueId("hook");
    String flow = automation(tenant.api(), "Deal " + hook);
    tenant
        .api()
        .put(
            "/api/sequences/" + flow + "/canvas",
            chain(
                hook,
                node(
                    "deal",
                    "crm_update",
                    Map.of("entityType", "opportunity", "fieldMappings", Map.of("stage", "won")))));

    String runId =
        tenant
            .api()
            .post("/api/v1/sequences/" + flow + "/test-runs", Map.of("contact_id", contactId))
            .text("/run_id");
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("failed");
    assertThat(run.get("error").asString()).contains("no record to update");
    ApiResponse retry = tenant.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of());
    assertThat(retry.status()).as(retry.toString()).isEqualTo(409);
    assertThat(retry.text("/detail")).contains("test run");
  }

  @Test
  void badBodiesOtherTenantsAndMissingScopesAreRefusedAndStartNothing() {
    TenantClient tenant = newTenant();
    String contactId = contact(tenant.api(), "ref-" + UUID.randomUUID() + "@example.com");
    String flow = draftFlow(tenant.api(), uniqueId("hook"));
    String path = "/api/v1/sequences/" + flow + "/test-runs";

    ApiResponse noContact = tenant.api().post(path, Map.of("payload", Map.of()));
    assertThat(noContact.status()).isEqualTo(400);
    assertThat(noContact.contentType()).startsWith("application/problem+json");
    assertThat(noContact.toString()).contains("contact_id");
    ApiResponse badPayload =
        tenant.api().post(path, Map.of("contact_id", contactId, "payload", List.of(1)));
    assertThat(badPayload.status()).isEqualTo(400);
    assertThat(badPayload.toString()).contains("payload");
    ApiResponse unknownField =
        tenant.api().post(path, Map.of("contact_id", contactId, "dry", false));
    assertThat(unknownField.status()).isEqualTo(400);
    assertThat(unknownField.toString()).contains("dry");
    ApiResponse notAUuid = tenant.api().post(path, Map.of("contact_id", "ada"));
    assertThat(notAUuid.status()).isEqualTo(400);
    ApiResponse noSuchNode =
        tenant.api().post(path, Map.of("contact_id", contactId, "node_id", "nope"));
    assertThat(noSuchNode.status()).isEqualTo(400);
    assertThat(noSuchNode.toString()).contains("node_id");

    TenantClient other = newTenant();
    String othersContact = contact(other.api(), "other-" + UUID.randomUUID() + "@example.com");
    assertThat(other.api().post(path, Map.of("contact_id", othersContact)).status()).isEqualTo(404);
    assertThat(tenant.api().post(path, Map.of("contact_id", othersContact)).status())
        .isEqualTo(404);

    ApiResponse writeOnly =
        keyFor(tenant.id(), List.of("sequences:write"), null)
            .post(path, Map.of("contact_id", contactId));
    assertThat(writeOnly.status()).isEqualTo(403);
    assertThat(writeOnly.toString()).contains("contacts:read");
    ApiResponse readOnly =
        keyFor(tenant.id(), List.of("sequences:read", "contacts:read"), null)
            .post(path, Map.of("contact_id", contactId));
    assertThat(readOnly.status()).isEqualTo(403);

    assertThat(
            jdbc.sql("select count(*) from automation_run where sequence_id = :id")
                .param("id", UUID.fromString(flow))
                .query(Long.class)
                .single())
        .isZero();
  }
}
