package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import io.temporal.client.WorkflowClient;
import io.temporal.common.converter.DefaultDataConverter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Text outside ASCII passes through the API, the stored canvas and every node of a run unchanged:
 * into records, events, outgoing calls and emails, the run's log and Temporal's summaries.
 */
class NonAsciiTextTest extends ApiTest {

  /** Two-byte (ë), three-byte (→, Ω, 日本) and four-byte (🚀, outside the BMP) UTF-8. */
  private static final String TEXT = "Zoë → Ωmega 日本 🚀";

  /** Another such text, for values that come from the trigger payload or a peer's answer. */
  private static final String NAME = "Åsa Ñúñez · 東京 😀";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Autowired private WorkflowClient temporal;

  private TenantClient tenant;
  private LocalHttpServer peer;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    peer = new LocalHttpServer();
  }

  @AfterEach
  void tearDown() {
    peer.close();
  }

  /** A node whose canvas label is its id followed by {@link #TEXT}. */
  private static Map<String, Object> node(String id, String type, Map<String, Object> config) {
    Map<String, Object> node = new LinkedHashMap<>();
    node.put("id", id);
    node.put("type", type);
    node.put("position", Map.of("x", 0, "y", 0));
    node.put("data", Map.of("label", label(id), "config", config));
    return node;
  }

  private static String label(String nodeId) {
    return nodeId + " " + TEXT;
  }

  /** The run's log entry of this node. */
  private static JsonNode logged(JsonNode run, String nodeId) {
    return run.get("node_log")
        .valueStream()
        .filter(entry -> entry.get("nodeId").asString().equals(nodeId))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no log entry of " + nodeId + " in " + run));
  }

  /** The summaries Temporal shows for the run's workflow and its activities. */
  private List<String> summaries(String runId) {
    return temporal.fetchHistory("run-" + runId).getEvents().stream()
        .filter(e -> e.getUserMetadata().hasSummary())
        .map(
            e ->
                DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
                    e.getUserMetadata().getSummary(), String.class, String.class))
        .toList();
  }

  private String contact(String email) {
    ApiResponse created =
        tenant.api().post("/api/v1/contacts", Map.of("email", email, "first_name", "Ada"));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/contact/id");
  }

  @Test
  void crmUpdateWritesALiteralAndACopiedTriggerValueUnchanged() {
    String contactId = contact("zoe@example.com");
    String hook = uniqueId("hook");
    String flow = "Flow " + TEXT + " " + hook;
    activeAutomation(
        tenant.api(),
        flow,
        chain(
            hook,
            node(
                "write",
                "crm_update",
                Map.of(
                    "entityType",
                    "contact",
                    "fieldMappings",
                    Map.of("department", TEXT, "title", "{{trigger.name}}")))));

    String runId =
        fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId, "name", NAME));
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/trigger_payload/name").asString()).isEqualTo(NAME);
    JsonNode stored = tenant.api().get("/api/v1/contacts/" + contactId).at("/contact");
    assertThat(stored.get("department").asString()).isEqualTo(TEXT);
    assertThat(stored.get("title").asString()).isEqualTo(NAME);
    JsonNode record = logged(run, "write").at("/output/record");
    assertThat(record.get("department").asString()).isEqualTo(TEXT);
    assertThat(record.get("title").asString()).isEqualTo(NAME);
    JsonNode updated = events(tenant.id(), "contact.updated").get(0);
    assertThat(updated.toString()).contains(TEXT, NAME);
    assertThat(summaries(runId))
        .contains("crm_update · " + label("write"))
        .anyMatch(summary -> summary.startsWith("Automation \"" + flow + "\""));
  }

  @Test
  void customFieldsAndEventsKeepTheTextTheApiWasGiven() {
    ApiResponse field =
        tenant
            .api()
            .post(
                "/api/v1/custom-fields",
                Map.of("object_type", "contact", "field_label", "Plan", "field_type", "text"));
    assertThat(field.status()).as(field.toString()).isEqualTo(201);

    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of(
                    "email",
                    "asa@example.com",
                    "first_name",
                    NAME,
                    "custom_fields",
                    Map.of("plan", TEXT)));

    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    assertThat(created.text("/contact/custom_fields/plan")).isEqualTo(TEXT);
    JsonNode stored =
        tenant.api().get("/api/v1/contacts/" + created.text("/contact/id")).at("/contact");
    assertThat(stored.get("first_name").asString()).isEqualTo(NAME);
    assertThat(stored.at("/custom_fields/plan").asString()).isEqualTo(TEXT);
    JsonNode event = events(tenant.id(), "contact.created").get(0);
    assertThat(event.toString()).contains(NAME, TEXT);
  }

  /**
   * webhook → condition on the text → http_request → data_transform → email → chat_message →
   * create_record, each with the text in its label and config, and a value from the trigger.
   */
  @Test
  void everyNodeTypeCarriesTheTextFromItsConfigAndItsVariables() throws Exception {
    ApiResponse field =
        tenant
            .api()
            .post(
                "/api/v1/custom-fields",
                Map.of("object_type", "account", "field_label", "Motto", "field_type", "text"));
    assertThat(field.status()).as(field.toString()).isEqualTo(201);
    ApiResponse connected =
        tenant
            .api()
            .put(
                "/api/v1/integrations/chat",
                Map.of("provider", "slack", "bot_token", "xoxb-1-2", "base_url", peer.url("/api")));
    assertThat(connected.status()).as(connected.toString()).isEqualTo(200);
    peer.answer("/call", 200, JSON.writeValueAsString(Map.of("reply", NAME + " " + TEXT)));
    peer.answer("/api/chat.postMessage", 200, "{\"ok\": true, \"channel\": \"C1\", \"ts\": \"1\"}");

    String hook = uniqueId("hook");
    Map<String, Object> flow =
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node(
                    "check",
                    "condition",
                    Map.of("field", "{{trigger.motto}}", "operator", "equals", "value", TEXT)),
                node(
                    "call",
                    "http_request",
                    http(
                        "POST",
                        peer.url("/call"),
                        "bodyTemplate",
                        "{\"text\": \"" + TEXT + "\", \"name\": \"{{trigger.name}}\"}")),
                node(
                    "shape",
                    "data_transform",
                    Map.of(
                        "transformType",
                        "map",
                        "mappings",
                        Map.of("fixed", TEXT, "reply", "{{http_request_1.body.reply}}"))),
                node(
                    "mail",
                    "email",
                    Map.of(
                        "to",
                        "asa@example.com",
                        "subject",
                        TEXT + " {{trigger.name}}",
                        "body",
                        "{{data_transform_1.reply}}")),
                node(
                    "say",
                    "chat_message",
                    Map.of("channel", "#sales", "messageTemplate", TEXT + " {{trigger.name}}")),
                node(
                    "make",
                    "create_record",
                    Map.of(
                        "entityType",
                        "account",
                        "fieldMappings",
                        Map.of(
                            "name",
                            "{{trigger.name}}",
                            "industry",
                            TEXT,
                            "custom_fields",
                            Map.of("motto", "{{data_transform_1.reply}}")))),
                node("otherwise", "http_request", http("POST", peer.url("/otherwise")))),
            List.of(
                edge("e1", hook, "check"),
                edge("e2", "check", "call", "true"),
                edge("e3", "check", "otherwise", "false"),
                edge("e4", "call", "shape"),
                edge("e5", "shape", "mail"),
                edge("e6", "mail", "say"),
                edge("e7", "say", "make")));
    String sequenceId = activeAutomation(tenant.api(), flow);

    JsonNode canvas = tenant.api().get("/api/sequences/" + sequenceId + "/canvas").json();
    assertThat(canvas.toString()).doesNotContain("\uFFFD");
    assertThat(canvas.findValuesAsString("label")).contains(label("check"), label("make"));
    assertThat(canvas.findValuesAsString("value")).contains(TEXT);

    String runId = fire(anonymous(), tenant.id(), hook, Map.of("motto", TEXT, "name", NAME));
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(peer.received("/otherwise")).as("the condition matched the text").isEmpty();
    LocalHttpServer.Received call = peer.received("/call").get(0);
    assertThat(JSON.readTree(call.body()).get("text").asString()).isEqualTo(TEXT);
    assertThat(JSON.readTree(call.body()).get("name").asString()).isEqualTo(NAME);
    String reply = NAME + " " + TEXT;
    assertThat(logged(run, "call").at("/output/body/reply").asString()).isEqualTo(reply);
    assertThat(logged(run, "shape").at("/output/fixed").asString()).isEqualTo(TEXT);
    assertThat(logged(run, "shape").at("/output/reply").asString()).isEqualTo(reply);

    JsonNode email =
        tenant.api().get("/api/v1/outbound-emails?run_id=" + runId).at("/outbound_emails/0");
    assertThat(email.get("subject").asString()).isEqualTo(TEXT + " " + NAME);
    assertThat(email.get("text_body").asString()).isEqualTo(reply);
    assertThat(logged(run, "mail").at("/output/subject").asString()).isEqualTo(TEXT + " " + NAME);

    JsonNode chat = JSON.readTree(peer.received("/api/chat.postMessage").get(0).body());
    assertThat(chat.get("text").asString()).isEqualTo(TEXT + " " + NAME);

    String accountId = logged(run, "make").at("/output/id").asString();
    JsonNode account = tenant.api().get("/api/v1/accounts/" + accountId).at("/account");
    assertThat(account.get("name").asString()).isEqualTo(NAME);
    assertThat(account.get("industry").asString()).isEqualTo(TEXT);
    assertThat(account.at("/custom_fields/motto").asString()).isEqualTo(reply);
    assertThat(logged(run, "make").at("/output/record/industry").asString()).isEqualTo(TEXT);
    assertThat(logged(run, "make").at("/output/record/custom_fields/motto").asString())
        .isEqualTo(reply);

    assertThat(summaries(runId))
        .contains(
            "http_request · " + label("call"),
            "email · " + label("mail"),
            "chat_message · " + label("say"),
            "create_record · " + label("make"));
  }
}
