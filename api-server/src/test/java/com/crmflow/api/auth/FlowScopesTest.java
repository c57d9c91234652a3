package com.crmflow.api.auth;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * No escalation through automations: activating a flow, or changing one that is active, needs the
 * scopes its nodes act with, so a key with only sequences:write cannot write contacts through
 * crm_update, nor read them through a crm_event_trigger and send them out.
 */
class FlowScopesTest extends ApiTest {

  private TenantClient tenant;
  private ApiClient flowsOnly;

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
