package com.crmflow.api.nodetype;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.workflow.node.NodeSecrets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;

/**
 * A node type is one class: {@link AuditStampNode}, a bean of the tests only, is in GET
 * /api/v1/node-types (and so in the console's palette and forms), in the canvas rules (its fields'
 * limits and its required field), in the scope check (it writes tasks) and in the worker, which
 * runs it, with no other edit.
 */
@Import(TestNodeTypes.class)
class NodeTypeFromTestSourceTest extends ApiTest {

  @Test
  void theNodeTypeIsServedWithItsPaletteEntryFieldsAndAccess() {
    TenantClient tenant = newTenant();

    ApiResponse answer = tenant.api().get("/api/v1/node-types");

    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    JsonNode stamp = type(answer, "audit_stamp");
    assertThat(stamp.get("label").asString()).isEqualTo("Audit stamp");
    assertThat(stamp.get("group").asString()).isEqualTo("actions");
    assertThat(stamp.get("icon").asString()).isEqualTo("stamp");
    assertThat(stamp.get("trigger").asBoolean()).isFalse();
    assertThat(stamp.get("step").asBoolean()).isTrue();
    assertThat(stamp.get("writes").valueStream().map(JsonNode::asString)).containsExactly("task");
    JsonNode note = stamp.at("/fields/0");
    assertThat(note.get("key").asString()).isEqualTo("note");
    assertThat(note.get("kind").asString()).isEqualTo("template");
    assertThat(note.get("required").asBoolean()).isTrue();
    assertThat(note.get("max_length").asInt()).isEqualTo(200);
    assertThat(stamp.at("/fields/1/options").valueStream().map(JsonNode::asString))
        .containsExactly("info", "warn");

    // the built-in types are there too, triggers first, with their secrets and branches
    List<String> names =
        answer.at("/node_types").valueStream().map(t -> t.get("type").asString()).toList();
    assertThat(names.subList(0, 3))
        .containsExactly("webhook_trigger", "schedule_trigger", "crm_event_trigger");
    assertThat(type(answer, "condition").get("outputs").valueStream().map(JsonNode::asString))
        .containsExactly("true", "false");
    assertThat(type(answer, "http_request").at("/fields/2/secret").asString())
        .isEqualTo("credential_entries");
    assertThat(type(answer, "webhook_trigger").at("/fields/1/kind").asString()).isEqualTo("secret");

    // the card line and the secret entries' rule come from the descriptors too
    assertThat(stamp.at("/summary/lead").asString()).isEqualTo("Stamp");
    assertThat(stamp.at("/summary/fields").valueStream().map(JsonNode::asString))
        .containsExactly("level", "note");
    assertThat(stamp.at("/summary/separator").asString()).isEqualTo(" · ");
    assertThat(type(answer, "delay").at("/fields/0/unit").asString()).isEqualTo("days");
    assertThat(type(answer, "delay").at("/summary/lead").asString()).isEqualTo("Wait");
    assertThat(type(answer, "http_request").at("/fields/2/secret_entries").asString())
        .isEqualTo(NodeSecrets.CREDENTIAL_ENTRY_PATTERN);
    assertThat(type(answer, "http_request").at("/fields/1/secret_entries").isNull()).isTrue();

    // what each type's output holds, for the variables of the nodes after it
    assertThat(
            type(answer, "http_request")
                .get("output_fields")
                .valueStream()
                .map(f -> f.get("key").asString()))
        .containsExactly("statusCode", "headers", "body");
    assertThat(type(answer, "condition").at("/output_fields/0/description").asString())
        .isEqualTo("true or false: the branch taken");
    assertThat(type(answer, "data_transform").at("/output_fields/0/key").asString())
        .isEqualTo("{mappings}");
    assertThat(stamp.get("output_fields").isEmpty()).isTrue();
    assertThat(type(answer, "condition").get("outputs_from").isNull()).isTrue();
    // an email's template is picked from the tenant's templates
    JsonNode templateId =
        type(answer, "email")
            .get("fields")
            .valueStream()
            .filter(f -> f.get("key").asString().equals("templateId"))
            .findFirst()
            .orElseThrow();
    assertThat(templateId.get("kind").asString()).isEqualTo("email_template");
    // and the contact's fields a template reads, by key and label
    assertThat(
            answer.at("/contact_fields").valueStream().map(f -> f.get("key").asString()).toList())
        .startsWith("contact_id", "email", "name")
        .contains("first_name", "lifecycle_stage", "custom_fields");
    assertThat(
            answer
                .at("/contact_fields")
                .valueStream()
                .filter(f -> f.get("key").asString().equals("lifecycle_stage"))
                .map(f -> f.get("label").asString()))
        .containsExactly("Lifecycle stage");
  }

  @Test
  void listingTheTypesNeedsSequencesRead() {
    TenantClient tenant = newTenant();
    ApiClient contactsOnly = keyFor(tenant.id(), List.of("contacts:read"), null);

    ApiResponse refused = contactsOnly.get("/api/v1/node-types");

    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
    assertThat(refused.text("/detail")).contains("sequences:read");
  }

  @Test
  void theCanvasRulesCheckItsFields() {
    TenantClient tenant = newTenant();
    String flow = SequenceSupport.automation(tenant.api(), "Stamp");

    // a value outside the field's options is never stored
    ApiResponse refused =
        tenant.api().put("/api/sequences/" + flow + "/canvas", stamped(Map.of("level", "loud")));
    assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
    assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
    assertThat(refused.at("/errors/0/field").asString()).isEqualTo("nodes.stamp.data.config.level");
    assertThat(refused.at("/errors/0/message").asString()).isEqualTo("must be one of [info, warn]");
    ApiResponse tooLong =
        tenant
            .api()
            .put("/api/sequences/" + flow + "/canvas", stamped(Map.of("note", "x".repeat(201))));
    assertThat(tooLong.status()).as(tooLong.toString()).isEqualTo(400);
    assertThat(tooLong.at("/errors/0/message").asString())
        .isEqualTo("must be at most 200 characters");
    assertThat(tenant.api().get("/api/sequences/" + flow + "/canvas").at("/canvas/version").asInt())
        .isZero();

    // without its required note the canvas is saved half-built but cannot be activated
    ApiResponse saved =
        tenant.api().put("/api/sequences/" + flow + "/canvas", stamped(Map.of("level", "info")));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    ApiResponse activation =
        tenant.api().patch("/api/v1/sequences/" + flow, Map.of("status", "active"));
    assertThat(activation.status()).as(activation.toString()).isEqualTo(422);
    assertThat(activation.header("Content-Type")).startsWith("application/problem+json");
    assertThat(activation.at("/errors").valueStream())
        .anySatisfy(
            e -> {
              assertThat(e.get("field").asString()).isEqualTo("nodes.stamp.data.config.note");
              assertThat(e.get("message").asString()).isEqualTo("is required");
            });
    assertThat(tenant.api().get("/api/v1/sequences/" + flow).text("/sequence/status"))
        .isEqualTo("draft");
  }

  @Test
  void aKeyWithoutTheScopeItsNodeWritesWithCannotActivateOrChangeTheFlow() {
    TenantClient tenant = newTenant();
    ApiClient flowsOnly = keyFor(tenant.id(), List.of("sequences:read", "sequences:write"), null);
    String flow = SequenceSupport.automation(flowsOnly, "Stamp");
    assertThat(
            flowsOnly
                .put("/api/sequences/" + flow + "/canvas", stamped(Map.of("note", "seen")))
                .status())
        .isEqualTo(200);

    ApiResponse refused = flowsOnly.patch("/api/v1/sequences/" + flow, Map.of("status", "active"));

    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(refused.text("/detail"))
        .isEqualTo(
            "Activating this flow needs the scopes its nodes act with; this API key lacks"
                + " tasks:write.");
    assertThat(tenant.api().get("/api/v1/sequences/" + flow).text("/sequence/status"))
        .isEqualTo("draft");

    ApiClient owner =
        keyFor(tenant.id(), List.of("sequences:read", "sequences:write", "tasks:write"), null);
    ApiResponse activated = owner.patch("/api/v1/sequences/" + flow, Map.of("status", "active"));
    assertThat(activated.status()).as(activated.toString()).isEqualTo(200);

    // the narrow key cannot save a change of the active flow either
    ApiResponse changed =
        flowsOnly.put("/api/sequences/" + flow + "/canvas", stamped(Map.of("note", "changed")));
    assertThat(changed.status()).as(changed.toString()).isEqualTo(403);
    assertThat(changed.text("/detail")).startsWith("Changing this active flow needs the scopes");
    assertThat(
            tenant
                .api()
                .get("/api/sequences/" + flow + "/nodes")
                .at("/nodes/1/data/config/note")
                .asString())
        .isEqualTo("seen");
  }

  @Test
  void aRunThroughTheTypeCompletesAndItsNodeLogShowsItsOutput() {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node(
                    "stamp",
                    "audit_stamp",
                    Map.of("note", "seen {{trigger.ref}}", "level", "warn", "about", "contact")),
                node(
                    "after",
                    "data_transform",
                    Map.of(
                        "transformType",
                        "map",
                        "mappings",
                        Map.of("copied", "{{audit_stamp_1.stamped}}")))),
            List.of(edge("e1", hook, "stamp"), edge("e2", "stamp", "after"))));

    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "stamped.ada@example.com"))
            .text("/contact/id");
    String runId =
        fire(anonymous(), tenant.id(), hook, Map.of("ref", "order-17", "contact_id", contactId));
    JsonNode run = awaitRun(tenant.api(), runId);

    JsonNode stamp =
        StampedRuns.assertStamped(
            run, runId, jdbc, "seen order-17", "warn", "stamped.ada@example.com");
    assertThat(stamp.at("/input/config/note").asString()).isEqualTo("seen order-17");
    // the nodes after it read its output as they read a built-in type's
    assertThat(run.at("/node_log/2/output/copied").asString()).isEqualTo("seen order-17");

    // a reader without the scopes of what the type reads and writes sees ids only
    ApiClient runsOnly = keyFor(tenant.id(), List.of("automation_runs:read"), null);
    JsonNode shown = runsOnly.get("/api/v1/automation-runs/" + runId).at("/run/node_log/1");
    assertThat(shown.toString()).doesNotContain("order-17", "stamped.ada@example.com");
    assertThat(shown.at("/output/withheld").valueStream().map(JsonNode::asString))
        .containsExactly("contacts:read", "tasks:read");
  }

  private static Map<String, Object> stamped(Map<String, Object> config) {
    return canvas(
        List.of(node("hook", "webhook_trigger", Map.of()), node("stamp", "audit_stamp", config)),
        List.of(edge("e1", "hook", "stamp")));
  }

  private static JsonNode type(ApiResponse answer, String name) {
    return answer
        .at("/node_types")
        .valueStream()
        .filter(t -> t.get("type").asString().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError(name + " is not served: " + answer));
  }
}
