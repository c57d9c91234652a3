package com.crmflow.api.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.SequenceSupport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SequenceApiTest extends ApiTest {

  @Test
  void createAppliesDefaultsAndAnswersEveryField() {
    var tenant = newTenant();
    ApiResponse created =
        tenant
            .api()
            .post("/api/v1/sequences", Map.of("name", "Onboarding", "description", "New users"));
    assertThat(created.status()).isEqualTo(201);
    JsonNode sequence = created.at("/sequence");
    assertThat(sequence.get("name").asString()).isEqualTo("Onboarding");
    assertThat(sequence.get("builder_mode").asString()).isEqualTo("linear");
    assertThat(sequence.get("flow_type").asString()).isEqualTo("sequence");
    assertThat(sequence.get("status").asString()).isEqualTo("draft");
    assertThat(sequence.get("step_count").asInt()).isZero();
    assertThat(sequence.get("created_at").asString()).isNotBlank();
  }

  @Test
  void anAutomationIsVisual() {
    var tenant = newTenant();
    ApiResponse linear =
        tenant.api().post("/api/v1/sequences", Map.of("name", "A", "flow_type", "automation"));
    assertThat(linear.status()).isEqualTo(400);
    assertThat(linear.text("/errors/0/field")).isEqualTo("builder_mode");
    ApiResponse bad =
        tenant.api().post("/api/v1/sequences", Map.of("name", "A", "flow_type", "robot"));
    assertThat(bad.text("/errors/0/field")).isEqualTo("flow_type");
    assertThat(tenant.api().get("/api/v1/sequences?status=all").at("/sequences").size()).isZero();
  }

  @Test
  void activationChecksCompletenessAndListingShowsActiveByDefault() {
    var tenant = newTenant();
    String id = SequenceSupport.sequence(tenant.api(), "Drip");
    ApiResponse empty = tenant.api().patch("/api/v1/sequences/" + id, Map.of("status", "active"));
    assertThat(empty.status()).isEqualTo(422);
    assertThat(empty.text("/errors/0/message")).isEqualTo("the canvas has no nodes");
    assertThat(tenant.api().get("/api/v1/sequences").at("/sequences").size()).isZero();

    tenant.api().put("/api/sequences/" + id + "/canvas", Flows.completeSequence());
    ApiResponse active =
        tenant
            .api()
            .patch("/api/v1/sequences/" + id, Map.of("status", "active", "name", "Drip v2"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);
    assertThat(active.text("/sequence/status")).isEqualTo("active");
    assertThat(active.text("/sequence/name")).isEqualTo("Drip v2");
    assertThat(active.at("/sequence/step_count").asInt()).isEqualTo(3);

    String draft = SequenceSupport.sequence(tenant.api(), "Draft one");
    ApiResponse listed = tenant.api().get("/api/v1/sequences");
    assertThat(listed.at("/sequences").size()).isEqualTo(1);
    assertThat(listed.text("/sequences/0/id")).isEqualTo(id);
    assertThat(listed.text("/sequences/0/builder_mode")).isEqualTo("linear");
    assertThat(tenant.api().get("/api/v1/sequences?status=draft").text("/sequences/0/id"))
        .isEqualTo(draft);
    assertThat(tenant.api().get("/api/v1/sequences?status=all").at("/sequences").size())
        .isEqualTo(2);
    assertThat(
            tenant
                .api()
                .get("/api/v1/sequences?status=all&flow_type=automation")
                .at("/sequences")
                .size())
        .isZero();
  }

  @Test
  void theDefaultListIsTheActiveSequencesAvailableForEnrollmentAndPagesWithATotal() {
    var tenant = newTenant();
    String older = activeSequence(tenant.api(), "Drip A");
    String newer = activeSequence(tenant.api(), "Drip B");
    String automation =
        SequenceSupport.activeAutomation(
            tenant.api(), Flows.completeAutomation(SequenceSupport.uniqueId("hook")));

    ApiResponse enrollable = tenant.api().get("/api/v1/sequences");
    ApiResponse automations = tenant.api().get("/api/v1/sequences?flow_type=automation");
    ApiResponse both = tenant.api().get("/api/v1/sequences?flow_type=all");
    ApiResponse secondPage = tenant.api().get("/api/v1/sequences?limit=1&offset=1");

    assertThat(enrollable.at("/sequences").valueStream().map(s -> s.get("id").asString()))
        .as("automations cannot be enrolled, so they are left out")
        .containsExactly(newer, older);
    assertThat(enrollable.at("/total").asInt()).isEqualTo(2);
    assertThat(enrollable.at("/limit").asInt()).isEqualTo(50);
    assertThat(enrollable.at("/offset").asInt()).isZero();
    assertThat(automations.at("/sequences").valueStream().map(s -> s.get("id").asString()))
        .containsExactly(automation);
    assertThat(automations.at("/total").asInt()).isEqualTo(1);
    assertThat(both.at("/total").asInt()).isEqualTo(3);
    assertThat(secondPage.at("/sequences").valueStream().map(s -> s.get("id").asString()))
        .containsExactly(older);
    assertThat(secondPage.at("/total").asInt()).isEqualTo(2);
  }

  private static String activeSequence(ApiClient api, String name) {
    String id = SequenceSupport.sequence(api, name);
    assertThat(api.put("/api/sequences/" + id + "/canvas", Flows.completeSequence()).status())
        .isEqualTo(200);
    assertThat(api.patch("/api/v1/sequences/" + id, Map.of("status", "active")).status())
        .isEqualTo(200);
    return id;
  }

  @Test
  void activationListsEveryProblem() {
    var tenant = newTenant();
    String id = SequenceSupport.automation(tenant.api(), "Broken");
    tenant
        .api()
        .put(
            "/api/sequences/" + id + "/canvas",
            Flows.canvas(
                java.util.List.of(
                    Flows.node("call", "http_request", Map.of("method", "GET")),
                    Flows.node("orphan", "delay", Map.of("delayDays", 1))),
                java.util.List.of()));
    ApiResponse refused = tenant.api().patch("/api/v1/sequences/" + id, Map.of("status", "active"));
    assertThat(refused.status()).isEqualTo(422);
    String errors = refused.at("/errors").toString();
    assertThat(errors)
        .contains("nodes.call.data.config.url")
        .contains("an automation needs exactly one trigger node")
        .contains("nodes.orphan");
    assertThat(tenant.api().get("/api/v1/sequences/" + id).text("/sequence/status"))
        .isEqualTo("draft");
  }

  @Test
  void pausingAndArchivingNeedNoChecks() {
    var tenant = newTenant();
    String id = SequenceSupport.sequence(tenant.api(), "S");
    assertThat(
            tenant
                .api()
                .patch("/api/v1/sequences/" + id, Map.of("status", "archived"))
                .text("/sequence/status"))
        .isEqualTo("archived");
    assertThat(
            tenant
                .api()
                .patch("/api/v1/sequences/" + id, Map.of("flow_type", "automation"))
                .status())
        .isEqualTo(400);
  }

  @Test
  void theListFindsFlowsByNameAndShowsEachOnesTriggerAndLastRun() {
    var tenant = newTenant();
    String hook = SequenceSupport.uniqueId("hook");
    String nurture =
        SequenceSupport.activeAutomation(
            tenant.api(), "Lead nurture", Flows.completeAutomation(hook));
    SequenceSupport.automation(tenant.api(), "Lead_scoring 100%");
    SequenceSupport.automation(tenant.api(), "Welcome series");
    String runId = SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of("plan", "pro"));

    ApiResponse leads = tenant.api().get("/api/v1/sequences?status=all&flow_type=all&q=LEAD");
    assertThat(leads.status()).as(leads.toString()).isEqualTo(200);
    assertThat(leads.at("/sequences").valueStream().map(s -> s.get("name").asString()))
        .containsExactly("Lead_scoring 100%", "Lead nurture");
    assertThat(leads.at("/total").asInt()).isEqualTo(2);
    // % and _ are the characters typed, not patterns
    assertThat(
            tenant
                .api()
                .get("/api/v1/sequences?status=all&flow_type=all&q=100%25")
                .at("/sequences")
                .valueStream()
                .map(s -> s.get("name").asString()))
        .containsExactly("Lead_scoring 100%");
    assertThat(
            tenant
                .api()
                .get("/api/v1/sequences?status=all&flow_type=all&q=d_n")
                .at("/total")
                .asInt())
        .isZero();

    JsonNode listed = leads.at("/sequences/1");
    assertThat(listed.get("id").asString()).isEqualTo(nurture);
    assertThat(listed.get("trigger_type").asString()).isEqualTo("webhook_trigger");
    assertThat(listed.get("last_run_at").asString()).isNotBlank();
    assertThat(listed.get("last_run_status").asString())
        .isIn("running", "completed", "failed", "cancelled");
    assertThat(
            tenant.api().get("/api/v1/automation-runs/" + runId).at("/run/created_at").asString())
        .isNotBlank();
    JsonNode never = leads.at("/sequences/0");
    assertThat(never.get("trigger_type").isNull()).isTrue();
    assertThat(never.get("last_run_at").isNull()).isTrue();
    assertThat(never.get("last_run_status").isNull()).isTrue();
  }

  @Test
  void aDuplicateIsADraftCopyWhoseTriggerHasANewIdAndWhoseActionsKeepTheirSecrets()
      throws Exception {
    var tenant = newTenant();
    try (LocalHttpServer peer = new LocalHttpServer()) {
      String hook = SequenceSupport.uniqueId("hook");
      Map<String, Object> flow =
          Flows.canvas(
              List.of(
                  Flows.node(hook, "webhook_trigger", Map.of("secretToken", "hook-token")),
                  Flows.node(
                      "call",
                      "http_request",
                      Flows.http(
                          "POST",
                          peer.url("/in"),
                          "headers",
                          Map.of("Authorization", "Bearer s3cr3t")))),
              List.of(Flows.edge("e1", hook, "call")));
      String original = SequenceSupport.activeAutomation(tenant.api(), "Router", flow);

      ApiResponse copied =
          tenant.api().post("/api/v1/sequences/" + original + "/duplicate", Map.of());
      assertThat(copied.status()).as(copied.toString()).isEqualTo(201);
      JsonNode copy = copied.at("/sequence");
      assertThat(copy.get("name").asString()).isEqualTo("Router (copy)");
      assertThat(copy.get("status").asString()).isEqualTo("draft");
      assertThat(copy.get("flow_type").asString()).isEqualTo("automation");
      assertThat(copy.get("current_version").asInt()).isEqualTo(1);
      String copyId = copy.get("id").asString();

      JsonNode canvas = tenant.api().get("/api/sequences/" + copyId + "/canvas").at("/canvas");
      String newHook = canvas.at("/nodes/0/id").asString();
      assertThat(newHook).startsWith(hook + "-").isNotEqualTo(hook);
      assertThat(canvas.at("/nodes/0/data/config/webhookPath").asString()).endsWith("/" + newHook);
      assertThat(canvas.at("/nodes/0/data/config/secretToken").isMissingNode()).isTrue();
      assertThat(canvas.at("/edges/0/source").asString()).isEqualTo(newHook);
      assertThat(canvas.at("/nodes/1/data/config/headers/Authorization").asString())
          .isEqualTo("********");
      // the original is untouched
      assertThat(
              tenant.api().get("/api/sequences/" + original + "/canvas").text("/canvas/nodes/0/id"))
          .isEqualTo(hook);

      // the copy, once active, sends the secret it was copied with
      assertThat(
              tenant
                  .api()
                  .patch("/api/v1/sequences/" + copyId, Map.of("status", "active"))
                  .status())
          .isEqualTo(200);
      String run = SequenceSupport.fire(anonymous(), tenant.id(), newHook, Map.of());
      SequenceSupport.awaitRun(tenant.api(), run);
      assertThat(peer.received("/in")).hasSize(1);
      assertThat(peer.received("/in").get(0).header("Authorization")).isEqualTo("Bearer s3cr3t");

      // a name of its own; another tenant's flow is not found
      assertThat(
              tenant
                  .api()
                  .post("/api/v1/sequences/" + original + "/duplicate", Map.of("name", "Router B"))
                  .text("/sequence/name"))
          .isEqualTo("Router B");
      assertThat(
              tenant
                  .api()
                  .post("/api/v1/sequences/" + original + "/duplicate", Map.of("name", 7))
                  .status())
          .isEqualTo(400);
      assertThat(
              newTenant()
                  .api()
                  .post("/api/v1/sequences/" + original + "/duplicate", Map.of())
                  .status())
          .isEqualTo(404);
    }
  }

  @Test
  void aFlowThatNeverRanIsDeletedAndOneWithRunsIsKept() {
    var tenant = newTenant();
    String draft = SequenceSupport.automation(tenant.api(), "Mistake");
    tenant
        .api()
        .put(
            "/api/sequences/" + draft + "/canvas",
            Flows.completeAutomation(SequenceSupport.uniqueId("hook")));
    ApiResponse deleted = tenant.api().delete("/api/v1/sequences/" + draft);
    assertThat(deleted.status()).as(deleted.toString()).isEqualTo(200);
    assertThat(deleted.at("/deleted").asBoolean()).isTrue();
    assertThat(tenant.api().get("/api/v1/sequences/" + draft).status()).isEqualTo(404);
    assertThat(tenant.api().get("/api/sequences/" + draft + "/versions").status()).isEqualTo(404);
    assertThat(tenant.api().delete("/api/v1/sequences/" + draft).status()).isEqualTo(404);

    String hook = SequenceSupport.uniqueId("hook");
    String ran =
        SequenceSupport.activeAutomation(
            tenant.api(), "Ran", Flows.waitADayThenCall(hook, "https://example.com/later"));
    ApiResponse active = tenant.api().delete("/api/v1/sequences/" + ran);
    assertThat(active.status()).isEqualTo(409);
    assertThat(active.text("/detail")).contains("is active");
    SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
    tenant.api().patch("/api/v1/sequences/" + ran, Map.of("status", "archived"));
    ApiResponse kept = tenant.api().delete("/api/v1/sequences/" + ran);
    assertThat(kept.status()).isEqualTo(409);
    assertThat(kept.text("/detail"))
        .contains("This automation has 1 run (1 in progress)")
        .contains("archive it instead");
    assertThat(tenant.api().get("/api/v1/sequences/" + ran).text("/sequence/status"))
        .isEqualTo("archived");
    // a deleted flow's trigger id is free again
    String again = SequenceSupport.automation(tenant.api(), "Again");
    assertThat(
            tenant
                .api()
                .put("/api/sequences/" + again + "/canvas", Flows.completeAutomation("reused"))
                .status())
        .isEqualTo(200);
    String gone = SequenceSupport.automation(tenant.api(), "Gone");
    assertThat(tenant.api().delete("/api/v1/sequences/" + again).status()).isEqualTo(200);
    assertThat(
            tenant
                .api()
                .put("/api/sequences/" + gone + "/canvas", Flows.completeAutomation("reused"))
                .status())
        .isEqualTo(200);
  }

  @Test
  void anActiveAutomationsRefusedChangeSpeaksOfAnAutomation() {
    var tenant = newTenant();
    String hook = SequenceSupport.uniqueId("hook");
    String seq =
        SequenceSupport.activeAutomation(tenant.api(), "Live", Flows.completeAutomation(hook));
    ApiResponse refused =
        tenant
            .api()
            .put(
                "/api/sequences/" + seq + "/canvas",
                Flows.chain(hook, Flows.node("call", "http_request", Map.of("method", "POST"))));
    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.text("/detail")).startsWith("An active automation only accepts changes");
  }
}
