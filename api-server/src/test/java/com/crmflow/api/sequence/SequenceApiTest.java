package com.crmflow.api.sequence;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.SequenceSupport;
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
    assertThat(tenant.api().get("/api/v1/sequences?status=gone").status()).isEqualTo(400);
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
    assertThat(tenant.api().get("/api/v1/sequences?flow_type=robot").status()).isEqualTo(400);
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
}
