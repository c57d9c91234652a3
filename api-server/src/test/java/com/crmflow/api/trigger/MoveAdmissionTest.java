package com.crmflow.api.trigger;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitMoveCompleted;
import static com.crmflow.api.support.SequenceSupport.fireWaitingRuns;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.run.RunAdmission;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A move of waiting runs takes only what new runs leave in the trigger's admission, on the real
 * service (PostgreSQL, Temporal): while due runs of another tenant's triggers hold its share of the
 * admission (more than half its limit), the move asks no run to move; once they end, it moves every
 * run.
 */
class MoveAdmissionTest extends ApiTest {

  private static final int RUNS = 3;

  @Autowired private RunAdmission admission;
  @Autowired private CrmProperties properties;

  @Test
  void aMoveWaitsWhileNewRunsHoldTheAdmissionAndCompletesOnceTheyEnd() {
    TenantClient tenant = newTenant();
    ApiClient api = tenant.api();
    String hook = uniqueId("moving");
    String flow = activeAutomation(api, chain(hook, node("wait", "delay", Map.of("delayDays", 1))));
    List<String> runs = fireWaitingRuns(anonymous(), api, tenant.id(), hook, RUNS);
    ApiResponse saved =
        api.put(
            "/api/sequences/" + flow + "/canvas",
            chain(hook, node("wait", "delay", Map.of("delayDays", 2))));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);

    UUID busyTenant = newTenant().id();
    List<UUID> due = new ArrayList<>();
    try {
      // new runs of another tenant, let in by the admission and due until they end
      DueRuns.takeShare(admission, busyTenant, due);
      assertThat(admission.dueNow(busyTenant))
          .isGreaterThanOrEqualTo(properties.trigger().admission().maxDueRuns() / 2);

      ApiResponse started = api.post("/api/sequences/" + flow + "/runs/move", Map.of());
      assertThat(started.status()).as(started.toString()).isEqualTo(202);
      String moveUrl = "/api/sequences/" + flow + "/runs/moves/" + started.text("/move/move_id");
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> api.get(moveUrl).at("/move"),
              move ->
                  "running".equals(move.get("status").asString())
                      && move.get("pending").asLong() == RUNS
                      && move.get("moved").asLong() == 0);
      assertThat(admission.backgroundNow()).as("no update under way").isZero();

      due.forEach(admission::ended);
      JsonNode done = awaitMoveCompleted(api, moveUrl);
      assertThat(done.get("moved").asLong()).as(done.toString()).isEqualTo(RUNS);
      assertThat(done.get("skipped").asLong()).isZero();
      for (String runId : runs) {
        JsonNode run = api.get("/api/v1/automation-runs/" + runId).at("/run");
        assertThat(run.get("canvas_version").asInt()).as(run.toString()).isEqualTo(2);
        assertThat(run.get("moved_from_versions").toString()).isEqualTo("[1]");
      }
      assertThat(admission.backgroundNow()).as("each update's room given back").isZero();
    } finally {
      due.forEach(admission::ended);
    }
  }
}
