package com.crmflow.api.auth;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.RunHistory;
import com.crmflow.api.support.SequenceSupport;
import io.temporal.client.WorkflowClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * No escalation through automations: activating a flow, or changing one that is active, needs the
 * scopes its nodes act with, so a key with only sequences:write cannot write contacts through
 * crm_update, nor read them through a crm_event_trigger and send them out.
 */
class FlowScopesTest extends ApiTest {

  private TenantClient tenant;
  private ApiClient flowsOnly;
  @Autowired private WorkflowClient temporal;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    flowsOnly = keyFor(tenant.id(), List.of("sequences:read", "sequences:write"), null);
  }

  @Test
  void aFlowThatReadsAndWritesContactsNeedsThoseScopesToBeActivated() {
    String trigger = uniqueId("on-contact");
    Map<String, Object> copyContacts =
        canvas(
            List.of(
                node(trigger, "crm_event_trigger", Map.of("eventType", "contact.created")),
                node(
                    "mark",
                    "crm_update",
                    Map.of(
                        "entityType",
                        "contact",
                        "recordId",
                        "{{trigger.data.contact_id}}",
                        "fieldMappings",
                        Map.of("lead_status", "copied")))),
            List.of(edge("e1", trigger, "mark")));
    String flow = SequenceSupport.automation(flowsOnly, "Copy contacts");
    assertThat(flowsOnly.put("/api/sequences/" + flow + "/canvas", copyContacts).status())
        .isEqualTo(200);

    ApiResponse refused = flowsOnly.patch("/api/v1/sequences/" + flow, Map.of("status", "active"));

    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(refused.text("/detail"))
        .isEqualTo(
            "Activating this flow needs the scopes its nodes act with; this API key lacks"
                + " contacts:read, contacts:write.");
    assertThat(tenant.api().get("/api/v1/sequences/" + flow).text("/sequence/status"))
        .isEqualTo("draft");

    ApiResponse keyOfItsOwn =
        admin()
            .post(
                "/admin/v1/tenants/" + tenant.id() + "/api-keys",
                Map.of(
                    "name",
                    "flow owner",
                    "scopes",
                    List.of(
                        "sequences:write", "sequences:read", "contacts:read", "contacts:write")));
    ApiClient owner = withKey(keyOfItsOwn.text("/key"));
    ApiResponse activated = owner.patch("/api/v1/sequences/" + flow, Map.of("status", "active"));
    assertThat(activated.status()).as(activated.toString()).isEqualTo(200);
    assertThat(activated.text("/sequence/activated_by_key_id"))
        .isEqualTo(keyOfItsOwn.text("/api_key/id"));

    // a change of the active flow needs them too: the narrow key cannot retarget it
    ApiResponse changed =
        flowsOnly.patch(
            "/api/sequences/" + flow + "/nodes/mark",
            Map.of("data", Map.of("config", Map.of("fieldMappings", Map.of("title", "x")))));
    assertThat(changed.status()).as(changed.toString()).isEqualTo(403);
    assertThat(changed.text("/detail")).startsWith("Changing this active flow needs the scopes");
    assertThat(
            tenant
                .api()
                .get("/api/sequences/" + flow + "/nodes")
                .at("/nodes/1/data/config/fieldMappings/lead_status")
                .asString())
        .as("the refused change changed nothing")
        .isEqualTo("copied");
  }

  @Test
  void eachNodeTypeAsksForTheScopesItActsWith() {
    assertThat(
            activateWith(
                node(
                    "call",
                    "http_request",
                    Map.of("method", "POST", "url", "https://example.com/in"))))
        .as("a call with the payload only")
        .isEqualTo(200);
    assertThat(
            activateWith(
                node(
                    "call",
                    "http_request",
                    Map.of(
                        "method",
                        "POST",
                        "url",
                        "https://example.com/in",
                        "bodyTemplate",
                        "{\"email\": \"{{contact.email}}\"}"))))
        .as("a call that sends the contact's data")
        .isEqualTo(403);
    assertThat(activateWith(node("mail", "email", Map.of("subject", "Hi")))).isEqualTo(403);
    assertThat(
            activateWith(
                node("post", "chat_message", Map.of("channel", "#sales", "messageTemplate", "hi"))))
        .isEqualTo(403);
    assertThat(
            activateWith(
                node(
                    "task",
                    "create_record",
                    Map.of("entityType", "task", "fieldMappings", Map.of("title", "Call")))))
        .isEqualTo(403);
  }

  @Test
  void everyWayOfReadingTheContactNeedsContactsRead() {
    String lacks =
        "Activating this flow needs the scopes its nodes act with; this API key lacks"
            + " contacts:read.";
    assertThat(
            refusedActivation(
                http("POST", "https://example.com/in", "bodyTemplate", "{{ contact }}")))
        .as("the whole record, with spaces")
        .isEqualTo(lacks);
    assertThat(
            refusedActivation(
                http("POST", "https://example.com/in", "bodyTemplate", "{{contact}}")))
        .as("the whole record")
        .isEqualTo(lacks);
    assertThat(refusedActivation(http("POST", "https://example.com/in?e={{ contact.email }}")))
        .as("a field in the url")
        .isEqualTo(lacks);
    assertThat(
            refusedActivation(
                http(
                    "POST",
                    "https://example.com/in",
                    "headers",
                    Map.of("X-Who", "{{contact.last_name}}"))))
        .as("a field in a header")
        .isEqualTo(lacks);
    assertThat(
            refusedActivation(
                Map.of(
                    "transformType",
                    "filter",
                    "mappings",
                    Map.of("source", "contact", "field", "x", "operator", "is_not_empty"))))
        .as("a data_transform filter's source")
        .isEqualTo(lacks);
    assertThat(
            refusedActivation(
                Map.of(
                    "transformType",
                    "merge",
                    "mappings",
                    Map.of("sources", List.of("trigger", "contact")))))
        .as("a data_transform merge's sources")
        .isEqualTo(lacks);
    assertThat(
            refusedActivation(
                Map.of("transformType", "map", "mappings", Map.of("who", "{{contact.email}}"))))
        .as("a data_transform map")
        .isEqualTo(lacks);

    // a condition on a field of the contact
    String hook = uniqueId("hook");
    String flow = SequenceSupport.automation(flowsOnly, "Condition " + hook);
    ApiResponse saved =
        flowsOnly.put(
            "/api/sequences/" + flow + "/canvas",
            canvas(
                List.of(
                    node(hook, "webhook_trigger", Map.of()),
                    node(
                        "if",
                        "condition",
                        Map.of(
                            "field",
                            "{{contact.lead_status}}",
                            "operator",
                            "equals",
                            "value",
                            "vip")),
                    node("call", "http_request", http("POST", "https://example.com/in"))),
                List.of(edge("e1", hook, "if"), edge("e2", "if", "call", "true"))));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    ApiResponse refused = flowsOnly.patch("/api/v1/sequences/" + flow, Map.of("status", "active"));
    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(refused.text("/detail")).isEqualTo(lacks);
    assertThat(tenant.api().get("/api/v1/sequences/" + flow).text("/sequence/status"))
        .isEqualTo("draft");
  }

  @Test
  void readingAWriteNodesAnswerReadsTheRecordItWrote() {
    String hook = uniqueId("hook");
    String flow = SequenceSupport.automation(flowsOnly, "Upsert " + hook);
    // create_record of a contact upserts by email, and answers with the whole stored contact
    Map<String, Object> upsertThenSend =
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node(
                    "upsert",
                    "create_record",
                    Map.of(
                        "entityType",
                        "contact",
                        "fieldMappings",
                        Map.of("email", "{{trigger.e}}"))),
                node(
                    "send",
                    "http_request",
                    http(
                        "POST",
                        "https://example.com/in",
                        "bodyTemplate",
                        "{{create_record_1.record}}"))),
            List.of(edge("e1", hook, "upsert"), edge("e2", "upsert", "send")));
    assertThat(flowsOnly.put("/api/sequences/" + flow + "/canvas", upsertThenSend).status())
        .isEqualTo(200);
    ApiClient writeOnly =
        keyFor(tenant.id(), List.of("sequences:read", "sequences:write", "contacts:write"), null);

    ApiResponse refused = writeOnly.patch("/api/v1/sequences/" + flow, Map.of("status", "active"));

    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(refused.text("/detail")).endsWith("this API key lacks contacts:read.");
    assertThat(tenant.api().get("/api/v1/sequences/" + flow).text("/sequence/status"))
        .isEqualTo("draft");
  }

  /**
   * Every path that changes an active flow checks the flow it leaves: PUT canvas, POST, PATCH and
   * DELETE of nodes, POST of edges, PUT /steps and generate. Each refusal leaves the version as it
   * was.
   */
  @Test
  void everyChangeOfAnActiveFlowIsChecked() {
    String hook = uniqueId("hook");
    Map<String, Object> harmless =
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node("call", "http_request", http("POST", "https://example.com/in"))),
            List.of(edge("e1", hook, "call")));
    String flow = SequenceSupport.activeAutomation(tenant.api(), harmless);
    String base = "/api/sequences/" + flow;
    int version = version(flow);

    assertThat(
            flowsOnly.put(
                base + "/canvas",
                canvas(
                    List.of(
                        node(hook, "webhook_trigger", Map.of()),
                        node(
                            "call",
                            "http_request",
                            http(
                                "POST",
                                "https://example.com/in",
                                "bodyTemplate",
                                "{{ contact }}"))),
                    List.of(edge("e1", hook, "call")))))
        .satisfies(refused -> assertRefused(refused, "PUT canvas"));
    assertThat(
            flowsOnly.patch(
                base + "/nodes/call",
                Map.of(
                    "data",
                    Map.of("config", Map.of("url", "https://example.com/{{ contact.email }}")))))
        .satisfies(refused -> assertRefused(refused, "PATCH node"));
    assertThat(version(flow)).as("nothing was stored").isEqualTo(version);
    assertThat(tenant.api().get(base + "/nodes").at("/nodes/1/data/config/url").asString())
        .isEqualTo("https://example.com/in");

    // a flow that needs contacts:read (an email) refuses any change by a key without it
    String mailHook = uniqueId("hook");
    String mailing =
        SequenceSupport.activeAutomation(
            tenant.api(),
            canvas(
                List.of(
                    node(mailHook, "webhook_trigger", Map.of()),
                    node("mail", "email", Map.of("subject", "Hi")),
                    node("wait", "delay", Map.of("delayDays", 1))),
                List.of(edge("e1", mailHook, "mail"), edge("e2", "mail", "wait"))));
    int mailingVersion = version(mailing);
    assertThat(flowsOnly.delete("/api/sequences/" + mailing + "/nodes/wait"))
        .satisfies(refused -> assertRefused(refused, "DELETE node"));
    assertThat(version(mailing)).isEqualTo(mailingVersion);

    // a linear sequence: PUT /steps, and generate
    String linear = SequenceSupport.sequence(tenant.api(), "Linear " + hook);
    ApiResponse steps =
        tenant
            .api()
            .put(
                "/api/v1/sequences/" + linear + "/steps",
                Map.of(
                    "steps", List.of(Map.of("type", "delay", "config", Map.of("delayDays", 1)))));
    assertThat(steps.status()).as(steps.toString()).isEqualTo(200);
    ApiResponse active =
        tenant.api().patch("/api/v1/sequences/" + linear, Map.of("status", "active"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);
    int linearVersion = version(linear);
    assertThat(
            flowsOnly.put(
                "/api/v1/sequences/" + linear + "/steps",
                Map.of(
                    "steps", List.of(Map.of("type", "email", "config", Map.of("subject", "Hi"))))))
        .satisfies(refused -> assertRefused(refused, "PUT /steps"));
    assertThat(
            flowsOnly.post(
                "/api/sequences/" + linear + "/generate",
                Map.of("prompt", "send an email with subject Hello")))
        .satisfies(refused -> assertRefused(refused, "generate"));
    assertThat(version(linear)).isEqualTo(linearVersion);
  }

  /**
   * A run receives a record only when its flow reads it: a trigger call naming a contact gives a
   * flow that does not read the contact nothing of it (in its variables, its call, its log and its
   * workflow's input), and a flow that does read it gets it.
   */
  @Test
  void aFlowThatDoesNotReadTheContactIsNotGivenIt() {
    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of("email", "secret.person@example.com", "first_name", "Hidden"));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    String contactId = created.text("/contact/id");
    try (LocalHttpServer peer = new LocalHttpServer()) {
      peer.answer("/out", 200, "{}");
      String blind = uniqueId("blind");
      SequenceSupport.activeAutomation(
          tenant.api(),
          canvas(
              List.of(
                  node(blind, "webhook_trigger", Map.of()),
                  node(
                      "send",
                      "http_request",
                      http("POST", peer.url("/out"), "bodyTemplate", "{{trigger}}"))),
              List.of(edge("e1", blind, "send"))));

      String runId =
          SequenceSupport.fire(anonymous(), tenant.id(), blind, Map.of("contact_id", contactId));
      JsonNode run = SequenceSupport.awaitRun(tenant.api(), runId);

      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      String sent = peer.received("/out").get(0).body();
      assertThat(sent).contains(contactId).doesNotContain("secret.person", "Hidden");
      assertThat(run.toString()).doesNotContain("secret.person", "Hidden");
      assertThat(workflowPayloads(runId)).contains(contactId).doesNotContain("secret.person");

      // the same call, reading the contact, gets it: the contact was there to be given
      String reading = uniqueId("reading");
      SequenceSupport.activeAutomation(
          tenant.api(),
          canvas(
              List.of(
                  node(reading, "webhook_trigger", Map.of()),
                  node(
                      "send",
                      "http_request",
                      http(
                          "POST",
                          peer.url("/read"),
                          "bodyTemplate",
                          "{\"e\": \"{{ contact.email }}\"}"))),
              List.of(edge("e1", reading, "send"))));
      peer.answer("/read", 200, "{}");
      JsonNode read =
          SequenceSupport.awaitRun(
              tenant.api(),
              SequenceSupport.fire(
                  anonymous(), tenant.id(), reading, Map.of("contact_id", contactId)));
      assertThat(read.get("status").asString()).as(read.toString()).isEqualTo("completed");
      assertThat(peer.received("/read").get(0).body())
          .isEqualTo("{\"e\": \"secret.person@example.com\"}");
    }
  }

  /** What the run's workflow history holds: its input, activity inputs and markers. */
  private String workflowPayloads(String runId) {
    String payloads = RunHistory.payloads(temporal, runId);
    assertThat(payloads).as("the history was read").isNotEmpty();
    return payloads;
  }

  private void assertRefused(ApiResponse refused, String path) {
    assertThat(refused.status()).as(path + ": " + refused).isEqualTo(403);
    assertThat(refused.text("/detail"))
        .as(path)
        .isEqualTo(
            "Changing this active flow needs the scopes its nodes act with; this API key lacks"
                + " contacts:read.");
  }

  private int version(String flow) {
    return tenant.api().get("/api/sequences/" + flow + "/canvas").at("/version").asInt();
  }

  /**
   * The detail of the 403 that activating hook → a node with this config refuses (http_request when
   * it has a url, else data_transform); the flow stays a draft.
   */
  private String refusedActivation(Map<String, Object> config) {
    String hook = uniqueId("hook");
    String flow = SequenceSupport.automation(flowsOnly, "Flow " + hook);
    String type = config.containsKey("url") ? "http_request" : "data_transform";
    ApiResponse saved =
        flowsOnly.put(
            "/api/sequences/" + flow + "/canvas",
            canvas(
                List.of(node(hook, "webhook_trigger", Map.of()), node("step", type, config)),
                List.of(edge("e1", hook, "step"))));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    ApiResponse refused = flowsOnly.patch("/api/v1/sequences/" + flow, Map.of("status", "active"));
    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(tenant.api().get("/api/v1/sequences/" + flow).text("/sequence/status"))
        .isEqualTo("draft");
    return refused.text("/detail");
  }

  /** Status of activating hook → the node with the sequences-only key. */
  private int activateWith(Map<String, Object> action) {
    String hook = uniqueId("hook");
    String flow = SequenceSupport.automation(flowsOnly, "Flow " + hook);
    ApiResponse saved =
        flowsOnly.put(
            "/api/sequences/" + flow + "/canvas",
            canvas(
                List.of(node(hook, "webhook_trigger", Map.of()), action),
                List.of(edge("e1", hook, (String) action.get("id")))));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    return flowsOnly.patch("/api/v1/sequences/" + flow, Map.of("status", "active")).status();
  }
}
