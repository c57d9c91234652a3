package com.crmflow.api.flow;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.SequenceSupport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * POST /validate with a canvas body judges the canvas as sent (the editor's unsaved canvas) by the
 * rules of a save and an activation, answers in the designer's words, and stores nothing; without a
 * body it judges the stored canvas. POST /optimize and POST /generate with preview store nothing
 * either.
 */
class CanvasValidateBodyTest extends ApiTest {

  private static Map<String, Object> labelled(
      String id, String type, String label, Map<String, Object> config) {
    Map<String, Object> node = new LinkedHashMap<>(node(id, type, config));
    node.put("data", Map.of("label", label, "config", config));
    return node;
  }

  @Test
  void theCanvasSentIsJudgedInTheDesignersWordsAndNothingIsStored() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Welcome");
    // stored: complete
    ApiResponse saved =
        tenant.api().put("/api/sequences/" + seq + "/canvas", Flows.completeAutomation("signup"));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    String storedBefore = tenant.api().get("/api/sequences/" + seq + "/canvas").rawBody();
    int versionsBefore =
        tenant.api().get("/api/sequences/" + seq + "/versions").at("/versions").size();

    // on screen: an email without a subject and unconnected, a record update without its record
    Map<String, Object> screen =
        canvas(
            List.of(
                labelled("signup", "webhook_trigger", "Signup webhook", Map.of()),
                labelled("mail", "email", "Welcome mail", Map.of()),
                labelled(
                    "touch",
                    "crm_update",
                    "Mark as welcomed",
                    Map.of("fieldMappings", Map.of("x", "1")))),
            List.of(edge("e1", "signup", "touch")));
    ApiResponse judged = tenant.api().post("/api/sequences/" + seq + "/validate", screen);

    assertThat(judged.status()).as(judged.toString()).isEqualTo(200);
    assertThat(judged.at("/valid").asBoolean()).isFalse();
    JsonNode problems = judged.at("/problems");
    assertThat(problem(problems, "touch", "data.config.entityType").get("text").asString())
        .isEqualTo("“Mark as welcomed” · Entity type is required");
    JsonNode entity = problem(problems, "touch", "data.config.entityType");
    assertThat(entity.get("node_label").asString()).isEqualTo("Mark as welcomed");
    assertThat(entity.get("field_label").asString()).isEqualTo("Entity type");
    assertThat(entity.get("message").asString()).isEqualTo("is required");
    JsonNode unreachable = problem(problems, "mail", null);
    assertThat(unreachable.get("text").asString())
        .isEqualTo("“Welcome mail” is not reachable from “Signup webhook”")
        .doesNotContain("signup ");
    assertThat(problems.valueStream().map(p -> p.get("text").asString()))
        .noneMatch(text -> text.contains("data.config") || text.contains("entityType"));

    // the stored canvas is untouched: same version, same body, and its own judgement is clean
    assertThat(tenant.api().get("/api/sequences/" + seq + "/canvas").rawBody())
        .isEqualTo(storedBefore);
    assertThat(tenant.api().get("/api/sequences/" + seq + "/versions").at("/versions").size())
        .isEqualTo(versionsBefore);
    assertThat(tenant.api().get("/api/v1/sequences/" + seq).at("/sequence/current_version").asInt())
        .isEqualTo(1);
    ApiResponse stored = tenant.api().post("/api/sequences/" + seq + "/validate", Map.of());
    assertThat(stored.at("/valid").asBoolean()).as(stored.toString()).isTrue();
    ApiResponse noBody =
        tenant.api().send("POST", "/api/sequences/" + seq + "/validate", null, null);
    assertThat(noBody.status()).as(noBody.toString()).isEqualTo(200);
    assertThat(noBody.at("/valid").asBoolean()).isTrue();

    // a complete canvas sent is valid
    ApiResponse complete =
        tenant
            .api()
            .post("/api/sequences/" + seq + "/validate", Flows.completeAutomation("signup"));
    assertThat(complete.at("/valid").asBoolean()).as(complete.toString()).isTrue();
    assertThat(complete.at("/problems").size()).isZero();
  }

  @Test
  void structuralProblemsOfTheCanvasSentAreWorded() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Loop");
    Map<String, Object> loop =
        canvas(
            List.of(
                labelled("a", "delay", "Wait a day", Map.of("delayDays", "one")),
                labelled("b", "delay", "Wait again", Map.of("delayDays", 1))),
            List.of(edge("e1", "a", "b"), edge("e2", "b", "b")));
    ApiResponse judged = tenant.api().post("/api/sequences/" + seq + "/validate", loop);
    assertThat(judged.status()).as(judged.toString()).isEqualTo(200);
    JsonNode days = problem(judged.at("/problems"), "a", "data.config.delayDays");
    assertThat(days.get("text").asString()).startsWith("“Wait a day” · Delay days ");
    JsonNode self =
        judged
            .at("/problems")
            .valueStream()
            .filter(p -> "e2".equals(p.get("edge_id").asString(null)))
            .findFirst()
            .orElseThrow();
    assertThat(self.get("text").asString())
        .startsWith("The connection from “Wait again” to “Wait again” · Target: ");
    assertThat(tenant.api().get("/api/v1/sequences/" + seq).at("/sequence/current_version").asInt())
        .isZero();
  }

  @Test
  void aBodyThatIsNoCanvasIs400AndUnknownSequence404() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Shapes");
    ApiResponse notCanvas =
        tenant.api().post("/api/sequences/" + seq + "/validate", Map.of("nodes", "many"));
    assertThat(notCanvas.status()).as(notCanvas.toString()).isEqualTo(400);
    assertThat(notCanvas.contentType()).contains("application/problem+json");
    assertThat(notCanvas.at("/errors/0/field").asString()).isEqualTo("nodes");
    ApiResponse array =
        tenant.api().send("POST", "/api/sequences/" + seq + "/validate", "[]", "application/json");
    assertThat(array.status()).as(array.toString()).isEqualTo(400);
    ApiResponse unknown =
        tenant
            .api()
            .post(
                "/api/sequences/00000000-0000-0000-0000-000000000000/validate",
                Flows.completeAutomation("x"));
    assertThat(unknown.status()).as(unknown.toString()).isEqualTo(404);
    assertThat(tenant.api().get("/api/v1/sequences/" + seq).at("/sequence/current_version").asInt())
        .isZero();
  }

  @Test
  void optimizeOfACanvasSentAndGeneratePreviewStoreNothing() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Suggest");
    ApiResponse empty = tenant.api().post("/api/sequences/" + seq + "/optimize", Map.of());
    assertThat(empty.status()).as("the stored canvas is empty: " + empty).isEqualTo(422);
    ApiResponse suggested =
        tenant
            .api()
            .post(
                "/api/sequences/" + seq + "/optimize",
                Flows.chain(
                    "hook",
                    node(
                        "call",
                        "http_request",
                        Map.of("method", "POST", "url", "https://a.example"))));
    assertThat(suggested.status()).as(suggested.toString()).isEqualTo(200);
    assertThat(suggested.at("/suggestions").isArray()).isTrue();

    ApiResponse preview =
        tenant
            .api()
            .post(
                "/api/sequences/" + seq + "/generate",
                Map.of(
                    "prompt",
                    "when a webhook arrives, wait 2 days, then send an email with subject Hi",
                    "preview",
                    true));
    assertThat(preview.status()).as(preview.toString()).isEqualTo(200);
    assertThat(preview.at("/nodes").size()).isGreaterThanOrEqualTo(2);
    assertThat(tenant.api().get("/api/v1/sequences/" + seq).at("/sequence/current_version").asInt())
        .isZero();
    assertThat(tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas/nodes").size())
        .isZero();
    ApiResponse generated =
        tenant
            .api()
            .post(
                "/api/sequences/" + seq + "/generate",
                Map.of(
                    "prompt",
                    "when a webhook arrives, wait 2 days, then send an email with subject Hi"));
    assertThat(generated.status()).as(generated.toString()).isEqualTo(200);
    assertThat(tenant.api().get("/api/v1/sequences/" + seq).at("/sequence/current_version").asInt())
        .isEqualTo(1);
  }

  private static JsonNode problem(JsonNode problems, String nodeId, String field) {
    return problems
        .valueStream()
        .filter(p -> nodeId.equals(p.get("node_id").asString(null)))
        .filter(
            p ->
                field == null
                    ? p.get("field").isNull()
                    : field.equals(p.get("field").asString(null)))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no problem of " + nodeId + " " + field + " in " + problems));
  }
}
