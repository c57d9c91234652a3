package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Each node's log entry shows what it ran with: its config with the template variables filled in as
 * it saw them, its secrets masked, and the variables it read; served by GET
 * /api/v1/automation-runs/{id} and stored in run_node_log.
 */
class NodeLogInputTest extends ApiTest {

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

  @Test
  void aNodesEntryCarriesItsResolvedInputWithItsSecretMasked() {
    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "ada.input@example.com"))
            .text("/contact/id");
    peer.answer("/welcome", 200, "{\"ok\": true}");
    String hook = uniqueId("hook");
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
                    http(
                        "POST",
                        peer.url("/welcome"),
                        "headers",
                        Map.of(
                            "Authorization",
                            "Bearer {{trigger.token}}",
                            "X-To",
                            "{{contact.email}}"),
                        "bodyTemplate",
                        "{\"plan\": \"{{trigger.plan}}\", \"phone\": \"{{contact.phone}}\"}"))),
            List.of(edge("e1", hook, "plan"), edge("e2", "plan", "call", "true"))));

    String runId =
        fire(
            anonymous(),
            tenant.id(),
            hook,
            Map.of("contact_id", contactId, "plan", "pro", "token", "tok-s3cret-42"));
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    // the secret was sent: the node ran with it
    assertThat(peer.received("/welcome").get(0).header("Authorization"))
        .isEqualTo("Bearer tok-s3cret-42");
    JsonNode log = run.get("node_log");
    assertThat(log.get(0).has("input")).as("a trigger's input is the payload").isFalse();
    JsonNode condition = log.get(1).get("input");
    assertThat(condition.at("/config/field").asString()).isEqualTo("pro");
    assertThat(condition.at("/read/trigger.plan").asString()).isEqualTo("pro");
    JsonNode call = log.get(2).get("input");
    assertThat(call.at("/config/url").asString()).isEqualTo(peer.url("/welcome"));
    assertThat(call.at("/config/headers/X-To").asString()).isEqualTo("ada.input@example.com");
    assertThat(call.at("/config/headers/Authorization").asString()).isEqualTo("********");
    assertThat(call.at("/config/bodyTemplate").asString())
        .isEqualTo("{\"plan\": \"pro\", \"phone\": \"\"}");
    assertThat(call.at("/read/contact.email").asString()).isEqualTo("ada.input@example.com");
    assertThat(call.get("read").has("contact.phone")).isTrue();
    assertThat(call.at("/read/contact.phone").isNull()).isTrue();
    assertThat(call.get("read").has("trigger.token"))
        .as("a variable read only inside a secret is not shown")
        .isFalse();
    assertThat(log.toString()).doesNotContain("tok-s3cret-42", "sealed:");

    String stored =
        jdbc.sql("select input::text from run_node_log where run_id = :id and seq = 3")
            .param("id", UUID.fromString(runId))
            .query(String.class)
            .single();
    assertThat(stored).contains("ada.input@example.com", "********").doesNotContain("s3cret");

    // a reader without contacts:read sees the input's ids only, as it sees the outputs
    ApiClient runsOnly = keyFor(tenant.id(), List.of("automation_runs:read"), null);
    JsonNode shown = runsOnly.get("/api/v1/automation-runs/" + runId).at("/run/node_log/2/input");
    assertThat(shown.toString()).doesNotContain("ada.input@example.com");
    assertThat(shown.at("/withheld/0").asString()).isEqualTo("contacts:read");
    assertThat(shown.has("config"))
        .as("the config, filled in with record data under the designer's keys, is withheld whole")
        .isFalse();
    assertThat(shown.has("read")).isTrue();
  }
}
