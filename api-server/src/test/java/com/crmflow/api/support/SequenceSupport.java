package com.crmflow.api.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/** Creating sequences in tests, activating automations, firing them and awaiting their runs. */
public final class SequenceSupport {

  private SequenceSupport() {}

  public static String automation(ApiClient api, String name) {
    ApiResponse created =
        api.post(
            "/api/v1/sequences",
            Map.of("name", name, "flow_type", "automation", "builder_mode", "visual"));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/sequence/id");
  }

  public static String sequence(ApiClient api, String name) {
    ApiResponse created = api.post("/api/v1/sequences", Map.of("name", name));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/sequence/id");
  }

  /** A new automation with this canvas, activated. */
  public static String activeAutomation(ApiClient api, Map<String, Object> canvas) {
    return activeAutomation(api, "Flow " + UUID.randomUUID(), canvas);
  }

  /** A new automation of this name with this canvas, activated. */
  public static String activeAutomation(ApiClient api, String name, Map<String, Object> canvas) {
    String seq = automation(api, name);
    ApiResponse saved = api.put("/api/sequences/" + seq + "/canvas", canvas);
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    ApiResponse active = api.patch("/api/v1/sequences/" + seq, Map.of("status", "active"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);
    return seq;
  }

  /** Fires the webhook trigger and returns the accepted run's id. */
  public static String fire(ApiClient anonymous, UUID tenantId, String nodeId, Object payload) {
    ApiResponse accepted =
        anonymous.post("/api/webhooks/automation/" + tenantId + "/" + nodeId, payload);
    assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
    return accepted.text("/runId");
  }

  /**
   * Fires the webhook trigger {@code runs} times (payload {@code {"n": i}}) and waits until each
   * run waits in its second node (a delay after the trigger); the runs' ids.
   */
  public static List<String> fireWaitingRuns(
      ApiClient anonymous, ApiClient api, UUID tenantId, String nodeId, int runs) {
    List<String> ids = new ArrayList<>();
    for (int n = 0; n < runs; n++) {
      ids.add(fire(anonymous, tenantId, nodeId, Map.of("n", n)));
    }
    for (String runId : ids) {
      await()
          .atMost(Patience.EVENTUALLY)
          .until(
              () -> api.get("/api/v1/automation-runs/" + runId).at("/run/node_log/1/status"),
              status -> "running".equals(status.asString()));
    }
    return ids;
  }

  /** The move at {@code moveUrl} once it completed ({@link Patience#EVENTUALLY} at most). */
  public static JsonNode awaitMoveCompleted(ApiClient api, String moveUrl) {
    return await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> api.get(moveUrl).at("/move"),
            move -> "completed".equals(move.get("status").asString()));
  }

  /** The run once it is no longer running ({@link Patience#EVENTUALLY} at most). */
  public static JsonNode awaitRun(ApiClient api, String runId) {
    JsonNode[] run = new JsonNode[1];
    await()
        .atMost(Patience.EVENTUALLY)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              run[0] = api.get("/api/v1/automation-runs/" + runId).at("/run");
              return !run[0].get("status").asString().equals("running");
            });
    return run[0];
  }

  /** Waits until the run's node log has this many entries. */
  public static void awaitNodeLog(ApiClient api, String runId, int entries) {
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                api.get("/api/v1/automation-runs/" + runId).at("/run/node_log").size() == entries);
  }

  /** A trigger id unique across tests (trigger node ids are unique per tenant). */
  public static String uniqueId(String base) {
    return base + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
