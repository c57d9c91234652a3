package com.crmflow.api.flow;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.workflow.node.NodeSecrets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CanvasApiTest extends ApiTest {

  @Test
  void putReplacesTheCanvasAndKeepsClientIds() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Flow");
    ApiResponse saved =
        tenant.api().put("/api/sequences/" + seq + "/canvas", Flows.completeAutomation("hook-1"));
    assertThat(saved.status()).isEqualTo(200);
    assertThat(saved.at("/saved").asBoolean()).isTrue();
    assertThat(saved.at("/node_count").asInt()).isEqualTo(3);
    assertThat(saved.at("/edge_count").asInt()).isEqualTo(2);

    ApiResponse read = tenant.api().get("/api/sequences/" + seq + "/canvas");
    JsonNode canvas = read.at("/canvas");
    assertThat(canvas.get("sequence_id").asString()).isEqualTo(seq);
    assertThat(canvas.get("nodes").valueStream().map(n -> n.get("id").asString()))
        .containsExactly("hook-1", "call", "wait");
    JsonNode call = canvas.get("nodes").get(1);
    assertThat(call.get("type").asString()).isEqualTo("http_request");
    assertThat(call.at("/position/x").asDouble()).isZero();
    assertThat(call.at("/data/config/url").asString()).isEqualTo("https://example.com/hook");
    assertThat(call.get("created_at").asString()).isNotBlank();
    JsonNode edge = canvas.get("edges").get(0);
    assertThat(edge.get("source").asString()).isEqualTo("hook-1");
    assertThat(edge.get("type").asString()).isEqualTo("default");
    assertThat(edge.get("label").isNull()).isTrue();

    // what GET returns can be PUT back as it is
    Map<String, Object> roundTrip =
        Map.of("nodes", canvas.get("nodes"), "edges", canvas.get("edges"));
    assertThat(tenant.api().put("/api/sequences/" + seq + "/canvas", roundTrip).status())
        .isEqualTo(200);
  }

  @Test
  void webhookPathIsAssignedByTheServer() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Flow");
    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/sequences/" + seq + "/nodes",
                Map.of(
                    "type",
                    "webhook_trigger",
                    "position",
                    Map.of("x", 10, "y", 20),
                    "data",
                    Map.of(
                        "label",
                        "In",
                        "config",
                        Map.of("webhookPath", "/evil", "secretToken", "s3cret"))));
    assertThat(created.status()).isEqualTo(201);
    String id = created.text("/node/id");
    assertThat(UUID.fromString(id)).isNotNull();
    assertThat(created.text("/node/sequence_id")).isEqualTo(seq);
    assertThat(created.text("/node/data/config/webhookPath"))
        .isEqualTo("/api/webhooks/automation/" + tenant.id() + "/" + id);
    assertThat(created.text("/node/data/config/secretToken")).isEqualTo(NodeSecrets.MASK);
  }

  @Test
  void nodeAndEdgeEndpoints() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Flow");
    String base = "/api/sequences/" + seq;
    String a =
        tenant
            .api()
            .post(
                base + "/nodes",
                Map.of(
                    "type",
                    "http_request",
                    "position",
                    Map.of("x", 0, "y", 0),
                    "data",
                    Map.of(
                        "label",
                        "Call",
                        "config",
                        Map.of(
                            "method",
                            "GET",
                            "url",
                            "https://a.example",
                            "headers",
                            Map.of("X", "1")))))
            .text("/node/id");
    String b =
        tenant
            .api()
            .post(
                base + "/nodes",
                Map.of(
                    "type",
                    "delay",
                    "position",
                    Map.of("x", 250, "y", 0),
                    "data",
                    Map.of("label", "Wait", "config", Map.of("delayDays", 1))))
            .text("/node/id");

    ApiResponse patched =
        tenant
            .api()
            .patch(
                base + "/nodes/" + a,
                Map.of(
                    "position",
                    Map.of("x", 5, "y", 6),
                    "data",
                    Map.of("config", Map.of("url", "https://b.example"))));
    assertThat(patched.status()).isEqualTo(200);
    assertThat(patched.text("/node/data/config/url")).isEqualTo("https://b.example");
    assertThat(patched.text("/node/data/config/method")).isEqualTo("GET"); // merged, kept
    assertThat(patched.text("/node/data/label")).isEqualTo("Call");
    assertThat(patched.at("/node/position/x").asDouble()).isEqualTo(5);
    assertThat(patched.text("/node/updated_at")).isNotBlank();
    Map<String, Object> removeHeaders = new HashMap<>();
    removeHeaders.put("headers", null);
    assertThat(
            tenant
                .api()
                .patch(base + "/nodes/" + a, Map.of("data", Map.of("config", removeHeaders)))
                .at("/node/data/config")
                .has("headers"))
        .isFalse();

    ApiResponse edge =
        tenant.api().post(base + "/edges", Map.of("source", a, "target", b, "label", "then"));
    assertThat(edge.status()).isEqualTo(201);
    assertThat(edge.text("/edge/type")).isEqualTo("default");
    assertThat(edge.text("/edge/label")).isEqualTo("then");
    assertThat(edge.text("/edge/sequence_id")).isEqualTo(seq);
    assertThat(tenant.api().get(base + "/edges").at("/edges").size()).isEqualTo(1);
    assertThat(tenant.api().get(base + "/nodes").at("/nodes").size()).isEqualTo(2);

    ApiResponse badEdge = tenant.api().post(base + "/edges", Map.of("source", a, "target", "nope"));
    assertThat(badEdge.status()).isEqualTo(400);
    assertThat(badEdge.at("/errors").toString()).contains("target").contains("nope");

    ApiResponse deleted = tenant.api().delete(base + "/nodes/" + b);
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.at("/deleted").asBoolean()).isTrue();
    assertThat(deleted.at("/edges_removed").asInt()).isEqualTo(1);
    assertThat(tenant.api().get(base + "/edges").at("/edges").size()).isZero();

    String e2 =
        tenant
            .api()
            .post(
                base + "/nodes",
                Map.of(
                    "type",
                    "delay",
                    "position",
                    Map.of("x", 1, "y", 1),
                    "data",
                    Map.of("label", "W", "config", Map.of())))
            .text("/node/id");
    String edgeId =
        tenant.api().post(base + "/edges", Map.of("source", a, "target", e2)).text("/edge/id");
    assertThat(tenant.api().delete(base + "/edges/" + edgeId).at("/deleted").asBoolean()).isTrue();
    assertThat(tenant.api().delete(base + "/edges/" + edgeId).status()).isEqualTo(404);
    assertThat(tenant.api().delete(base + "/nodes/ghost").status()).isEqualTo(404);
    assertThat(
            tenant
                .api()
                .patch(base + "/nodes/ghost", Map.of("position", Map.of("x", 1, "y", 1)))
                .status())
        .isEqualTo(404);
  }

  @Test
  void unknownSequenceIs404OnEveryRoute() {
    var tenant = newTenant();
    String base = "/api/sequences/" + UUID.randomUUID();
    List<ApiResponse> answers =
        List.of(
            tenant.api().get(base + "/canvas"),
            tenant.api().put(base + "/canvas", Map.of("nodes", List.of(), "edges", List.of())),
            tenant.api().get(base + "/nodes"),
            tenant
                .api()
                .post(
                    base + "/nodes",
                    Map.of(
                        "type",
                        "delay",
                        "position",
                        Map.of("x", 1, "y", 1),
                        "data",
                        Map.of("label", "x", "config", Map.of()))),
            tenant.api().get(base + "/edges"),
            tenant.api().post(base + "/edges", Map.of("source", "a", "target", "b")),
            tenant.api().delete(base + "/edges/x"),
            tenant.api().delete(base + "/nodes/x"),
            tenant.api().post(base + "/generate", Map.of("prompt", "wait 2 days")),
            tenant.api().post(base + "/optimize", Map.of()),
            tenant.api().post(base + "/validate", Map.of()));
    for (ApiResponse answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(404);
    }
  }

  @Test
  void everyWriteMakesAnImmutableVersion() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Flow");
    String base = "/api/sequences/" + seq;
    assertThat(
            tenant
                .api()
                .put(base + "/canvas", Flows.completeAutomation("hook"))
                .at("/version")
                .asInt())
        .isEqualTo(1);
    tenant
        .api()
        .patch(
            base + "/nodes/call",
            Map.of("data", Map.of("config", Map.of("url", "https://changed.example"))));
    tenant.api().delete(base + "/nodes/wait");

    ApiResponse versions = tenant.api().get(base + "/versions");
    assertThat(versions.at("/versions").valueStream().map(v -> v.get("version").asInt()))
        .containsExactly(3, 2, 1);
    ApiResponse first = tenant.api().get(base + "/versions/1");
    assertThat(first.at("/canvas/nodes").size()).isEqualTo(3);
    assertThat(first.text("/canvas/nodes/1/data/config/url")).isEqualTo("https://example.com/hook");
    ApiResponse latest = tenant.api().get(base + "/canvas");
    assertThat(latest.at("/canvas/version").asInt()).isEqualTo(3);
    assertThat(latest.at("/canvas/nodes").size()).isEqualTo(2);
    assertThat(latest.text("/canvas/nodes/1/data/config/url")).isEqualTo("https://changed.example");
    assertThat(tenant.api().get(base + "/versions/9").status()).isEqualTo(404);

    // a rejected write makes no version
    tenant.api().post(base + "/edges", Map.of("source", "call", "target", "hook"));
    assertThat(tenant.api().get(base + "/versions").at("/versions").size()).isEqualTo(3);
  }

  @Test
  void triggerIdsAreUniqueWithinTheTenant() {
    var tenant = newTenant();
    String first = SequenceSupport.automation(tenant.api(), "One");
    String second = SequenceSupport.automation(tenant.api(), "Two");
    assertThat(
            tenant
                .api()
                .put("/api/sequences/" + first + "/canvas", Flows.completeAutomation("shared-hook"))
                .status())
        .isEqualTo(200);
    ApiResponse clash =
        tenant
            .api()
            .put("/api/sequences/" + second + "/canvas", Flows.completeAutomation("shared-hook"));
    assertThat(clash.status()).isEqualTo(400);
    assertThat(clash.text("/errors/0/field")).isEqualTo("nodes.shared-hook.id");
    // another tenant may use the same id
    var other = newTenant();
    String theirs = SequenceSupport.automation(other.api(), "Theirs");
    assertThat(
            other
                .api()
                .put(
                    "/api/sequences/" + theirs + "/canvas", Flows.completeAutomation("shared-hook"))
                .status())
        .isEqualTo(200);
  }

  @Test
  void anActiveSequenceOnlyTakesChangesThatKeepItComplete() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Live");
    tenant.api().put("/api/sequences/" + seq + "/canvas", Flows.completeAutomation("live-hook"));
    assertThat(tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active")).status())
        .isEqualTo(200);

    Map<String, Object> dropUrl = new HashMap<>();
    dropUrl.put("url", null);
    ApiResponse refused =
        tenant
            .api()
            .patch(
                "/api/sequences/" + seq + "/nodes/call", Map.of("data", Map.of("config", dropUrl)));
    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.text("/errors/0/field")).isEqualTo("nodes.call.data.config.url");
    assertThat(tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas/version").asInt())
        .isEqualTo(1);
    ApiResponse fine =
        tenant
            .api()
            .patch(
                "/api/sequences/" + seq + "/nodes/call",
                Map.of("data", Map.of("label", "Renamed")));
    assertThat(fine.status()).isEqualTo(200);
  }

  @Test
  void validateEndpointListsProblemsForEditors() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Half built");
    tenant
        .api()
        .put(
            "/api/sequences/" + seq + "/canvas",
            canvas(
                List.of(
                    node("in", "webhook_trigger", Map.of()),
                    node(
                        "c",
                        "condition",
                        Map.of("field", "{{trigger.plan}}", "operator", "equals"))),
                List.of(edge("e1", "in", "c"))));
    ApiResponse result = tenant.api().post("/api/sequences/" + seq + "/validate", Map.of());
    assertThat(result.status()).isEqualTo(200);
    assertThat(result.at("/valid").asBoolean()).isFalse();
    JsonNode problems = result.at("/problems");
    assertThat(problems.valueStream().map(p -> p.get("node_id").asString())).contains("c");
    assertThat(problems.toString())
        .contains("data.config.value")
        .contains("true or a false branch");

    String ok = SequenceSupport.automation(tenant.api(), "Complete");
    tenant.api().put("/api/sequences/" + ok + "/canvas", Flows.completeAutomation("ok-hook"));
    ApiResponse valid = tenant.api().post("/api/sequences/" + ok + "/validate", Map.of());
    assertThat(valid.at("/valid").asBoolean()).isTrue();
    assertThat(valid.at("/problems").size()).isZero();
  }

  /** webhook_trigger → data_transform: a complete automation that calls no one. */
  private static Map<String, Object> hooked(String hook) {
    return Flows.chain(
        hook,
        node(
            "note",
            "data_transform",
            Map.of("transformType", "map", "mappings", Map.of("seen", "{{trigger.n}}"))));
  }

  private static Map<String, Object> withTrigger(
      Map<String, Object> canvas, Map<String, Object> trigger) {
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> nodes =
        new ArrayList<>((List<Map<String, Object>>) canvas.get("nodes"));
    nodes.set(0, trigger);
    return Map.of("nodes", nodes, "edges", canvas.get("edges"));
  }

  private ApiResponse call(String hook, UUID tenant, String secret) {
    var client = secret == null ? anonymous() : anonymous().withHeader("X-Webhook-Secret", secret);
    return client.post("/api/webhooks/automation/" + tenant + "/" + hook, Map.of("n", 1));
  }

  private String storedSecret(String seq, int version) {
    return jdbc.sql(
            "select nodes -> 0 -> 'data' -> 'config' ->> 'secretToken' from canvas_version"
                + " where sequence_id = :s and version = :v")
        .param("s", UUID.fromString(seq))
        .param("v", version)
        .query(String.class)
        .optional()
        .orElse(null);
  }

  private int currentVersion(ApiTest.TenantClient tenant, String seq) {
    return tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas/version").asInt();
  }

  /**
   * A restore keeps each webhook trigger's current secretToken: restoring a version saved before
   * the secret was set leaves the live trigger closed. Taking the old version's (none) would open
   * it, which is refused (409, naming the trigger) until confirmed.
   */
  @Test
  void aRestoreKeepsTheCurrentTriggerSecretAndOpensALiveTriggerOnlyWhenConfirmed() {
    var tenant = newTenant();
    String hook = SequenceSupport.uniqueId("hook");
    String seq = SequenceSupport.automation(tenant.api(), "Live hook");
    String base = "/api/sequences/" + seq;
    Map<String, Object> open = hooked(hook);
    assertThat(tenant.api().put(base + "/canvas", open).status()).isEqualTo(200);
    Map<String, Object> closed =
        withTrigger(open, node(hook, "webhook_trigger", Map.of("secretToken", "s3cret-token")));
    assertThat(tenant.api().put(base + "/canvas", closed).status()).isEqualTo(200);
    assertThat(tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active")).status())
        .isEqualTo(200);
    String sealed = storedSecret(seq, 2);
    assertThat(sealed).startsWith(NodeSecrets.SEALED_PREFIX);

    ApiResponse restored = tenant.api().post(base + "/versions/1/restore", Map.of());

    assertThat(restored.status()).as(restored.toString()).isEqualTo(200);
    assertThat(restored.at("/version").asInt()).isEqualTo(3);
    assertThat(storedSecret(seq, 3)).isEqualTo(sealed);
    assertThat(
            tenant
                .api()
                .get(base + "/canvas")
                .at("/canvas/nodes/0/data/config/secretToken")
                .asString())
        .isEqualTo(NodeSecrets.MASK);
    assertThat(call(hook, tenant.id(), null).status()).isEqualTo(401);
    assertThat(call(hook, tenant.id(), "s3cret-token").status()).isEqualTo(200);

    // the old version's own secrets: none, which would open the live trigger
    ApiResponse refused =
        tenant.api().post(base + "/versions/1/restore?trigger_secrets=restored", Map.of());
    assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.text("/detail"))
        .isEqualTo(
            "This change would loosen the triggers of the active automation \"Live hook\" (1"
                + " trigger, named in errors); nothing was stored. Runs in progress go on with the"
                + " version they started with either way. To store it, send it again with"
                + " confirm_looser_triggers=true, or pause the automation first.");
    assertThat(refused.at("/errors"))
        .hasSize(1)
        .first()
        .satisfies(
            error -> {
              assertThat(error.get("field").asString())
                  .isEqualTo("nodes." + hook + ".data.config.secretToken");
              assertThat(error.get("message").asString())
                  .isEqualTo(
                      "is removed from this active webhook trigger: it would start runs for calls"
                          + " without X-Webhook-Secret");
            });
    assertThat(currentVersion(tenant, seq)).isEqualTo(3);
    assertThat(call(hook, tenant.id(), null).status()).isEqualTo(401);

    ApiResponse unknown =
        tenant.api().post(base + "/versions/1/restore?trigger_secrets=whatever", Map.of());
    assertThat(unknown.status()).as(unknown.toString()).isEqualTo(400);
    assertThat(unknown.text("/errors/0/field")).isEqualTo("trigger_secrets");
    assertThat(currentVersion(tenant, seq)).isEqualTo(3);

    ApiResponse confirmed =
        tenant
            .api()
            .post(
                base + "/versions/1/restore?trigger_secrets=restored&confirm_looser_triggers=true",
                Map.of());
    assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
    assertThat(storedSecret(seq, 4)).isNull();
    assertThat(call(hook, tenant.id(), null).status()).isEqualTo(200);
  }

  /**
   * A save loosens a live automation's triggers only when confirmed: removing a secretToken,
   * changing a trigger's type, or a new webhook trigger without one. A paused automation, a mask
   * put back, or a new secret are no concern.
   */
  @Test
  void aSaveThatLoosensALiveTriggerIsRefusedUntilConfirmed() {
    var tenant = newTenant();
    String hook = SequenceSupport.uniqueId("hook");
    String seq = SequenceSupport.automation(tenant.api(), "Guarded");
    String base = "/api/sequences/" + seq;
    Map<String, Object> open = hooked(hook);
    Map<String, Object> closed =
        withTrigger(open, node(hook, "webhook_trigger", Map.of("secretToken", "s3cret-token")));
    assertThat(tenant.api().put(base + "/canvas", closed).status()).isEqualTo(200);
    assertThat(tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active")).status())
        .isEqualTo(200);

    ApiResponse withoutSecret = tenant.api().put(base + "/canvas", open);
    assertThat(withoutSecret.status()).as(withoutSecret.toString()).isEqualTo(409);
    assertThat(withoutSecret.text("/errors/0/field"))
        .isEqualTo("nodes." + hook + ".data.config.secretToken");

    Map<String, Object> dropSecret = new HashMap<>();
    dropSecret.put("secretToken", null);
    ApiResponse patched =
        tenant.api().patch(base + "/nodes/" + hook, Map.of("data", Map.of("config", dropSecret)));
    assertThat(patched.status()).as(patched.toString()).isEqualTo(409);
    assertThat(patched.text("/errors/0/field"))
        .isEqualTo("nodes." + hook + ".data.config.secretToken");

    Map<String, Object> retyped =
        withTrigger(open, node(hook, "crm_event_trigger", Map.of("eventType", "contact.updated")));
    ApiResponse typeChanged = tenant.api().put(base + "/canvas", retyped);
    assertThat(typeChanged.status()).as(typeChanged.toString()).isEqualTo(409);
    assertThat(typeChanged.text("/errors/0/field")).isEqualTo("nodes." + hook + ".type");
    assertThat(typeChanged.text("/errors/0/message"))
        .isEqualTo("changes this active trigger from webhook_trigger to crm_event_trigger");

    // the secret trigger swapped for a new one without a secret
    String other = SequenceSupport.uniqueId("other");
    ApiResponse newPublic = tenant.api().put(base + "/canvas", hooked(other));
    assertThat(newPublic.status()).as(newPublic.toString()).isEqualTo(409);
    assertThat(newPublic.text("/errors/0/field")).isEqualTo("nodes." + other);
    assertThat(newPublic.text("/errors/0/message"))
        .isEqualTo(
            "is a new webhook trigger without a secretToken on this active automation: anyone"
                + " with its path could start runs");

    // none of that was stored: the trigger still wants its secret
    assertThat(currentVersion(tenant, seq)).isEqualTo(1);
    assertThat(call(hook, tenant.id(), null).status()).isEqualTo(401);

    // the mask put back keeps the secret, a new one replaces it: nothing loosens
    assertThat(
            tenant
                .api()
                .put(
                    base + "/canvas",
                    withTrigger(
                        open,
                        node(hook, "webhook_trigger", Map.of("secretToken", NodeSecrets.MASK))))
                .status())
        .isEqualTo(200);
    assertThat(
            tenant
                .api()
                .put(
                    base + "/canvas",
                    withTrigger(
                        open, node(hook, "webhook_trigger", Map.of("secretToken", "newer"))))
                .status())
        .isEqualTo(200);
    assertThat(call(hook, tenant.id(), "newer").status()).isEqualTo(200);

    // confirmed, it is stored
    ApiResponse confirmed = tenant.api().put(base + "/canvas?confirm_looser_triggers=true", open);
    assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
    assertThat(call(hook, tenant.id(), null).status()).isEqualTo(200);

    // a paused automation is not live: its triggers change freely
    assertThat(tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "paused")).status())
        .isEqualTo(200);
    assertThat(tenant.api().put(base + "/canvas", retyped).status()).isEqualTo(200);
  }
}
