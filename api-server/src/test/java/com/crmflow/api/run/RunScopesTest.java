package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitNodeLog;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs and the scopes of their readers and retriers: a retry acts as its flow does (only while the
 * flow is active, only for a key with the scopes the flow acts with), and a reader of runs sees of
 * each node what the records it holds allow (ids, a status, no record data, errors included),
 * unless it holds the records' read scope.
 */
class RunScopesTest extends ApiTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private LocalHttpServer peer;
  private TenantClient tenant;
  private ApiClient runsOnly;

  @BeforeEach
  void setUp() {
    peer = new LocalHttpServer();
    tenant = newTenant();
    runsOnly = keyFor(tenant.id(), List.of("automation_runs:read", "automation_runs:write"), null);
  }

  @AfterEach
  void tearDown() {
    peer.close();
  }

  private String contact(String email) {
    ApiResponse created =
        tenant.api().post("/api/v1/contacts", Map.of("email", email, "first_name", "Hidden"));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/contact/id");
  }

  private long retriesOf(String runId) {
    return jdbc.sql("select count(*) from automation_run where retry_of = :id")
        .param("id", UUID.fromString(runId))
        .query(Long.class)
        .single();
  }

  @Test
  void aRetryNeedsItsFlowActiveAndTheScopesTheFlowActsWith() {
    String contactId = contact("retried@example.com");
    peer.answer("/fail", 400, "{\"error\": \"bad\"}");
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(),
            chain(
                hook,
                node(
                    "send",
                    "http_request",
                    http(
                        "POST",
                        peer.url("/fail"),
                        "bodyTemplate",
                        "{\"e\": \"{{contact.email}}\"}"))));
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId));
    assertThat(awaitRun(tenant.api(), runId).get("status").asString()).isEqualTo("failed");
    String retryPath = "/api/v1/automation-runs/" + runId + "/retry";

    // a key that may retry runs, but could not have activated this flow
    ApiResponse refused = runsOnly.post(retryPath, Map.of());

    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(refused.text("/detail"))
        .isEqualTo(
            "Retrying this run needs the scopes its nodes act with; this API key lacks"
                + " contacts:read.");
    assertThat(retriesOf(runId)).isZero();

    // a paused flow's run is not retried, whoever asks
    ApiResponse paused =
        tenant.api().patch("/api/v1/sequences/" + flow, Map.of("status", "paused"));
    assertThat(paused.status()).as(paused.toString()).isEqualTo(200);

    ApiResponse notActive = tenant.api().post(retryPath, Map.of());

    assertThat(notActive.status()).as(notActive.toString()).isEqualTo(409);
    assertThat(notActive.text("/detail"))
        .isEqualTo(
            "Run "
                + runId
                + " cannot be retried: its flow is paused, and a run is retried only while its"
                + " flow is active. Activate the flow first.");
    assertThat(retriesOf(runId)).isZero();
    assertThat(peer.received("/fail")).as("nothing was sent again").hasSize(1);

    // active again, with a key holding the scopes: the retry runs
    peer.answer("/fail", 200, "{}");
    assertThat(tenant.api().patch("/api/v1/sequences/" + flow, Map.of("status", "active")).status())
        .isEqualTo(200);
    ApiResponse retried = tenant.api().post(retryPath, Map.of());
    assertThat(retried.status()).as(retried.toString()).isEqualTo(201);
    assertThat(awaitRun(tenant.api(), retried.text("/run/id")).get("status").asString())
        .isEqualTo("completed");
    assertThat(retriesOf(runId)).isEqualTo(1);
    assertThat(peer.received("/fail").get(1).body()).isEqualTo("{\"e\": \"retried@example.com\"}");
  }

  @Test
  void aReaderWithoutTheRecordsReadScopeSeesIdsNotRecords() {
    String contactId = contact("hidden.reader@example.com");
    String hook = uniqueId("hook");
    String flow =
        activeAutomation(
            tenant.api(),
            chain(
                hook,
                node(
                    "mark",
                    "crm_update",
                    Map.of(
                        "entityType",
                        "contact",
                        "recordId",
                        "{{trigger.contact_id}}",
                        "fieldMappings",
                        Map.of("lead_status", "seen")))));
    String runId =
        fire(
            anonymous(),
            tenant.id(),
            hook,
            Map.of("contact_id", contactId, "note", "private words"));
    JsonNode whole = awaitRun(tenant.api(), runId);
    assertThat(whole.get("status").asString()).as(whole.toString()).isEqualTo("completed");
    assertThat(whole.at("/node_log/1/output/record/email").asString())
        .as("a key with * sees the run as stored")
        .isEqualTo("hidden.reader@example.com");

    JsonNode shown = runsOnly.get("/api/v1/automation-runs/" + runId).at("/run");

    assertThat(shown.toString()).doesNotContain("hidden.reader", "Hidden", "private words");
    assertThat(shown.at("/trigger_payload/contact_id").asString()).isEqualTo(contactId);
    assertThat(shown.at("/trigger_payload/withheld/0").asString()).isEqualTo("contacts:read");
    assertThat(shown.at("/trigger_payload").size()).isEqualTo(2);
    JsonNode output = shown.at("/node_log/1/output");
    assertThat(output.get("id").asString()).isEqualTo(contactId);
    assertThat(output.get("entity_type").asString()).isEqualTo("contact");
    assertThat(output.at("/withheld/0").asString()).isEqualTo("contacts:read");
    assertThat(shown.at("/node_log/1/status").asString()).isEqualTo("completed");

    JsonNode listed =
        runsOnly.get("/api/v1/automation-runs?sequence_id=" + flow).at("/runs/0/trigger_payload");
    assertThat(listed.toString()).doesNotContain("private words");
    assertThat(listed.get("contact_id").asString()).isEqualTo(contactId);

    ApiClient contactReader =
        keyFor(tenant.id(), List.of("automation_runs:read", "contacts:read"), null);
    JsonNode readable = contactReader.get("/api/v1/automation-runs/" + runId).at("/run");
    assertThat(readable.at("/node_log/1/output/record/email").asString())
        .isEqualTo("hidden.reader@example.com");
    assertThat(readable.at("/trigger_payload/note").asString()).isEqualTo("private words");
    assertThat(readable.at("/trigger_payload/withheld").isMissingNode()).isTrue();

    // the read path chooses what to show; what is stored stays whole
    assertThat(
            jdbc.sql("select output::text from run_node_log where run_id = :id and seq = 2")
                .param("id", UUID.fromString(runId))
                .query(String.class)
                .single())
        .contains("hidden.reader@example.com");
    assertThat(
            jdbc.sql("select trigger_payload::text from automation_run where id = :id")
                .param("id", UUID.fromString(runId))
                .query(String.class)
                .single())
        .contains("private words");
  }

  @Test
  void aRunOfAFlowThatHoldsNoRecordIsShownWhole() {
    peer.answer("/in", 200, "{\"echo\": \"plain\"}");
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(), chain(hook, node("call", "http_request", http("POST", peer.url("/in")))));
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("note", "open words"));
    assertThat(awaitRun(tenant.api(), runId).get("status").asString()).isEqualTo("completed");

    JsonNode shown = runsOnly.get("/api/v1/automation-runs/" + runId).at("/run");

    assertThat(shown.at("/trigger_payload/note").asString()).isEqualTo("open words");
    assertThat(shown.at("/node_log/1/output/body/echo").asString()).isEqualTo("plain");
    assertThat(shown.toString()).doesNotContain("withheld");
  }

  /**
   * An id's name keeps a value only when it is a UUID or a number, and a mechanics name (status)
   * only a short token: a payload's field named like an id or a status is data otherwise.
   */
  @Test
  void fieldsNamedLikeIdsOrStatusesShowOnlyIdsAndTokens() {
    String contactId = contact("named.like.ids@example.com");
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            hook,
            node(
                "mark",
                "crm_update",
                Map.of(
                    "entityType",
                    "contact",
                    "recordId",
                    "{{trigger.contact_id}}",
                    "fieldMappings",
                    Map.of("lead_status", "seen")))));
    String refId = UUID.randomUUID().toString();
    Map<String, Object> payload = new java.util.LinkedHashMap<>();
    payload.put("contact_id", contactId);
    payload.put("external_id", "passport X123 of Ada");
    payload.put("accountId", 42);
    payload.put("status", "called Ada at home about her debts");
    payload.put("custom_fields", Map.of("ref_id", refId, "partnerId", "ada@partner.example"));
    String runId = fire(anonymous(), tenant.id(), hook, payload);
    assertThat(awaitRun(tenant.api(), runId).get("status").asString()).isEqualTo("completed");

    JsonNode shown = runsOnly.get("/api/v1/automation-runs/" + runId).at("/run/trigger_payload");

    assertThat(shown.toString()).doesNotContain("passport", "debts", "ada@partner");
    assertThat(shown.get("contact_id").asString()).isEqualTo(contactId);
    assertThat(shown.get("accountId").asInt()).isEqualTo(42);
    assertThat(shown.at("/custom_fields/ref_id").asString()).isEqualTo(refId);
    assertThat(shown.has("external_id")).isFalse();
    assertThat(shown.has("status")).isFalse();
    assertThat(shown.at("/custom_fields/partnerId").isMissingNode()).isTrue();
    assertThat(shown.at("/withheld/0").asString()).isEqualTo("contacts:read");
    assertThat(
            jdbc.sql("select trigger_payload::text from automation_run where id = :id")
                .param("id", UUID.fromString(runId))
                .query(String.class)
                .single())
        .as("what is stored stays whole")
        .contains("passport X123 of Ada", "ada@partner.example");
  }

  /** A contact with a name, a phone and a number custom field (score 97531). */
  private String secretContact(String email) {
    ApiResponse field =
        tenant
            .api()
            .post(
                "/api/v1/custom-fields",
                Map.of(
                    "object_type",
                    "contact",
                    "field_label",
                    "Score",
                    "field_key",
                    "score",
                    "field_type",
                    "number"));
    assertThat(field.status()).as(field.toString()).isIn(201, 409);
    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of(
                    "email",
                    email,
                    "first_name",
                    "Alice",
                    "last_name",
                    "Secretname",
                    "phone",
                    "+4915550123",
                    "custom_fields",
                    Map.of("score", 97531)));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/contact/id");
  }

  /**
   * What each node's entry shows follows what the node read, not its keys' names: a transform of
   * the contact into keys named status and count shows nothing of it, a transform of the webhook's
   * own payload shows whole, and a call that sent the contact's name shows its status code only.
   */
  @Test
  void eachNodeShowsWhatItsReadsAllowWhateverItsKeysAreNamed() {
    String contactId = secretContact("transformed@example.com");
    peer.answer("/echo", 200, "{\"echo\": \"Alice\"}");
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            hook,
            node(
                "mask",
                "data_transform",
                Map.of(
                    "transformType",
                    "map",
                    "mappings",
                    Map.of(
                        "status",
                        "{{contact.first_name}}",
                        "count",
                        "{{contact.custom_fields.score}}"))),
            node(
                "plain",
                "data_transform",
                Map.of("transformType", "map", "mappings", Map.of("plan", "{{trigger.plan}}"))),
            node(
                "call",
                "http_request",
                http(
                    "POST",
                    peer.url("/echo"),
                    "bodyTemplate",
                    "{\"n\": \"{{data_transform_1.status}}\"}"))));
    String runId =
        fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId, "plan", "pro"));
    JsonNode whole = awaitRun(tenant.api(), runId);
    assertThat(whole.get("status").asString()).as(whole.toString()).isEqualTo("completed");

    // a key with every scope: as stored
    assertThat(whole.at("/node_log/1/output"))
        .isEqualTo(JSON.readTree("{\"status\": \"Alice\", \"count\": \"97531\"}"));
    assertThat(whole.at("/node_log/1/input/read/contact.first_name").asString()).isEqualTo("Alice");
    assertThat(whole.at("/node_log/3/output/body/echo").asString()).isEqualTo("Alice");

    JsonNode shown = runsOnly.get("/api/v1/automation-runs/" + runId).at("/run");

    assertThat(shown.toString()).doesNotContain("Alice", "Secretname", "97531");
    assertThat(shown.at("/node_log/1/output"))
        .isEqualTo(JSON.readTree("{\"withheld\": [\"contacts:read\"]}"));
    assertThat(shown.at("/node_log/1/input"))
        .isEqualTo(
            JSON.readTree(
                "{\"read\": {\"withheld\": [\"contacts:read\"]}, \"withheld\": [\"contacts:read\"]}"));
    assertThat(shown.at("/node_log/2/output")).isEqualTo(JSON.readTree("{\"plan\": \"pro\"}"));
    assertThat(shown.at("/node_log/2/input")).isEqualTo(whole.at("/node_log/2/input"));
    assertThat(shown.at("/node_log/3/output"))
        .isEqualTo(JSON.readTree("{\"statusCode\": 200, \"withheld\": [\"contacts:read\"]}"));
    assertThat(shown.at("/node_log/3/status").asString()).isEqualTo("completed");

    // a key that may read contacts sees it whole
    ApiClient contactReader =
        keyFor(tenant.id(), List.of("automation_runs:read", "contacts:read"), null);
    assertThat(contactReader.get("/api/v1/automation-runs/" + runId).at("/run")).isEqualTo(whole);
  }

  /**
   * An error carries what a peer answered, or values filled in from a record: a reader without the
   * record's scope sees the HTTP status and which scopes would show the rest, in the run's error
   * and in its node's entry.
   */
  @Test
  void errorsShowTheirStatusAloneToAReaderWithoutTheRecordsScopes() {
    String contactId = secretContact("echoed@example.com");
    peer.answer("/strict", 400, "{\"email\": \"echoed@example.com\", \"phone\": \"+4915550123\"}");
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            hook,
            node(
                "call",
                "http_request",
                http(
                    "POST",
                    peer.url("/strict"),
                    "bodyTemplate",
                    "{\"email\": \"{{contact.email}}\", \"phone\": \"{{contact.phone}}\"}"))));
    String marker = uniqueId("mark");
    activeAutomation(
        tenant.api(),
        chain(
            marker,
            node(
                "mark",
                "crm_update",
                Map.of(
                    "entityType",
                    "contact",
                    "recordId",
                    "{{contact.first_name}} {{contact.last_name}}",
                    "fieldMappings",
                    Map.of("lead_status", "seen")))));
    String called = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId));
    String marked = fire(anonymous(), tenant.id(), marker, Map.of("contact_id", contactId));
    JsonNode calledWhole = awaitRun(tenant.api(), called);
    JsonNode markedWhole = awaitRun(tenant.api(), marked);
    assertThat(calledWhole.get("status").asString()).isEqualTo("failed");
    assertThat(markedWhole.get("status").asString()).isEqualTo("failed");
    // a key with every scope reads the errors as they are
    assertThat(calledWhole.get("error").asString())
        .startsWith("node call (http_request) failed: HTTP 400 from 127.0.0.1: ")
        .contains("echoed@example.com", "+4915550123");
    assertThat(calledWhole.at("/node_log/1/error").asString()).contains("+4915550123");
    assertThat(markedWhole.get("error").asString())
        .startsWith("node mark (crm_update) failed: ")
        .contains("Alice Secretname");

    JsonNode call = runsOnly.get("/api/v1/automation-runs/" + called).at("/run");
    JsonNode mark = runsOnly.get("/api/v1/automation-runs/" + marked).at("/run");

    assertThat(call.toString() + mark.toString())
        .doesNotContain("echoed@", "+4915550123", "Alice", "Secretname");
    assertThat(call.get("error").asString())
        .isEqualTo(
            "node call (http_request) failed: HTTP 400; details withheld: they need contacts:read");
    assertThat(call.at("/node_log/1/error").asString())
        .isEqualTo("HTTP 400; details withheld: they need contacts:read");
    assertThat(call.at("/node_log/1/status").asString()).isEqualTo("failed");
    assertThat(call.at("/node_log/1/input/withheld"))
        .isEqualTo(JSON.readTree("[\"contacts:read\"]"));
    assertThat(call.at("/node_log/1/input/config").isMissingNode()).isTrue();
    assertThat(mark.get("error").asString())
        .isEqualTo("node mark (crm_update) failed: details withheld: they need contacts:read");
    assertThat(mark.at("/node_log/1/error").asString())
        .isEqualTo("details withheld: they need contacts:read");
    // the listed runs too
    assertThat(
            runsOnly
                .get("/api/v1/automation-runs?status=failed")
                .at("/runs")
                .valueStream()
                .map(r -> r.get("error").asString()))
        .containsExactlyInAnyOrder(call.get("error").asString(), mark.get("error").asString());
  }

  /**
   * An Idempotency-Key is the sending API key's: another key of the tenant that sends the same
   * Idempotency-Key gets its own answer, never the stored answer of the first (which a key without
   * contacts:read must not see).
   */
  @Test
  void anotherKeysIdempotencyKeyDoesNotReplayItsAnswer() {
    String contactId = contact("replayed@example.com");
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            hook,
            node(
                "mark",
                "crm_update",
                Map.of(
                    "entityType",
                    "contact",
                    "recordId",
                    "{{trigger.contact_id}}",
                    "fieldMappings",
                    Map.of("lead_status", "seen"))),
            node("wait", "delay", Map.of("delayDays", 1))));
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId));
    awaitNodeLog(tenant.api(), runId, 3);
    String cancelPath = "/api/v1/automation-runs/" + runId + "/cancel";
    String idempotencyKey = "cancel-" + UUID.randomUUID();

    ApiResponse first =
        tenant.api().withHeader("Idempotency-Key", idempotencyKey).post(cancelPath, Map.of());
    assertThat(first.status()).as(first.toString()).isEqualTo(200);
    assertThat(first.toString()).contains("replayed@example.com");

    ApiResponse other =
        runsOnly.withHeader("Idempotency-Key", idempotencyKey).post(cancelPath, Map.of());

    assertThat(other.header("Idempotent-Replayed")).isNull();
    assertThat(other.status()).as(other.toString()).isEqualTo(409);
    assertThat(other.text("/detail"))
        .isEqualTo("Run " + runId + " is cancelled; only a running run can be cancelled.");
    assertThat(other.toString()).doesNotContain("replayed@example.com");
    List<String> stored =
        jdbc.sql(
                "select idempotency_key from idempotent_request where tenant_id = :t"
                    + " order by idempotency_key")
            .param("t", tenant.id())
            .query(String.class)
            .list();
    assertThat(stored).hasSize(2).allSatisfy(k -> assertThat(k).endsWith("/" + idempotencyKey));
    assertThat(stored.get(0)).isNotEqualTo(stored.get(1));
    List<Integer> answers =
        jdbc.sql("select status from idempotent_request where tenant_id = :t order by status")
            .param("t", tenant.id())
            .query(Integer.class)
            .list();
    assertThat(answers).containsExactly(200, 409);
  }
}
