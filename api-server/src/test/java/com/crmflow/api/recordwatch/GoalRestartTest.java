package com.crmflow.api.recordwatch;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.WholeService;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * A run's goal watch is a row stored with the run: a run that started waiting before the service
 * stopped is still ended by its contact's change after the service starts again on the same data.
 */
class GoalRestartTest {

  @Test
  void aRunStartedBeforeARestartIsEndedByItsGoalAfterIt(@TempDir Path dataDir) {
    ApiTest.TenantClient tenant;
    String contactId;
    String runId;
    try (ConfigurableApplicationContext first = WholeService.start(dataDir, new String[0])) {
      tenant = WholeService.newTenant(first);
      Map<String, Object> canvas =
          new HashMap<>(
              chain(
                  "hook",
                  node("wait", "delay", Map.of("delayDays", 1)),
                  node("mail", "email", Map.of("subject", "Still thinking?", "body", "Hi"))));
      canvas.put(
          "goal",
          Map.of(
              "field", "{{contact.lifecycle_stage}}", "operator", "equals", "value", "customer"));
      activeAutomation(tenant.api(), canvas);
      contactId =
          tenant
              .api()
              .post(
                  "/api/v1/contacts", Map.of("email", "ada@example.com", "lifecycle_stage", "lead"))
              .text("/contact/id");
      runId =
          fire(
              new ApiClient(WholeService.baseUrl(first), null),
              tenant.id(),
              "hook",
              Map.of("contact_id", contactId));
      ApiClient api = tenant.api();
      await()
          .atMost(Patience.EVENTUALLY)
          .until(
              () -> api.get("/api/v1/automation-runs/" + runId).at("/run/node_log/1"),
              entry -> "running".equals(entry.path("status").asString()));
    }

    try (ConfigurableApplicationContext second = WholeService.start(dataDir, new String[0])) {
      ApiClient api = new ApiClient(WholeService.baseUrl(second), tenant.key());
      assertThat(api.get("/api/v1/automation-runs/" + runId).text("/run/status"))
          .isEqualTo("running");

      ApiResponse patched =
          api.patch("/api/v1/contacts/" + contactId, Map.of("lifecycle_stage", "customer"));
      assertThat(patched.status()).as(patched.toString()).isEqualTo(200);

      JsonNode run = awaitRun(api, runId);
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      assertThat(run.at("/exit/reason").asString()).isEqualTo("goal");
      assertThat(run.at("/exit/at_node").asString()).isEqualTo("wait");
      assertThat(run.at("/node_log/1/output/skipped").asString()).isEqualTo("goal met");
      assertThat(run.at("/node_log").size()).as("no node after the goal").isEqualTo(2);
      assertThat(api.get("/api/v1/outbound-emails?run_id=" + runId).at("/total").asInt()).isZero();
    }
  }
}
