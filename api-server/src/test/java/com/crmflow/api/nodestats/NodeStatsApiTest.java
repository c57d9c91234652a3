package com.crmflow.api.nodestats;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * GET /api/sequences/:id/stats: per node, the runs waiting there now and those that passed, failed
 * or skipped it, a split's runs per branch, for the current version and older ones runs still run
 * on.
 */
class NodeStatsApiTest extends ApiTest {

  /** webhook → split 50/50 → A: wait a day, B: a call the peer refuses (404: the run fails). */
  private static Map<String, Object> flow(String hook, LocalHttpServer peer) {
    return canvas(
        List.of(
            node(hook, "webhook_trigger", Map.of()),
            node(
                "split",
                "split",
                Map.of(
                    "branches",
                    List.of(
                        Map.of("label", "A", "percent", 50), Map.of("label", "B", "percent", 50)))),
            node("wait", "delay", Map.of("delayDays", 1)),
            node("call", "http_request", Map.of("method", "POST", "url", peer.url("/refused")))),
        List.of(
            edge("e1", hook, "split"),
            edge("e2", "split", "wait", "A"),
            edge("e3", "split", "call", "B")));
  }

  private static JsonNode counts(JsonNode version, String nodeId) {
    return version
        .at("/nodes")
        .valueStream()
        .filter(n -> n.get("node_id").asString().equals(nodeId))
        .findFirst()
        .orElseThrow();
  }

  private JsonNode stats(TenantClient tenant, String flow, String since) {
    ApiResponse answer =
        tenant
            .api()
            .get(
                "/api/sequences/"
                    + flow
                    + "/stats"
                    + (since == null
                        ? ""
                        : "?since=" + URLEncoder.encode(since, StandardCharsets.UTF_8)));
    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    return answer.json();
  }

  @Test
  void eachNodeCountsItsRunsWaitingPassedFailedAndSkippedAndASplitItsBranches() {
    TenantClient tenant = newTenant();
    try (LocalHttpServer peer = new LocalHttpServer()) {
      peer.answer("/refused", 404, "{}");
      String hook = uniqueId("hook");
      String flowId = activeAutomation(tenant.api(), flow(hook, peer));
      List<String> runs = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        runs.add(fire(anonymous(), tenant.id(), hook, Map.of("n", i)));
      }
      // every run settled: waiting on A's delay, or failed on B's call
      JsonNode settled =
          await()
              .atMost(Duration.ofSeconds(60))
              .until(
                  () -> stats(tenant, flowId, null).at("/versions/0"),
                  v ->
                      counts(v, "wait").get("waiting").asLong()
                              + counts(v, "call").get("failed").asLong()
                          == 20);

      assertThat(settled.get("current").asBoolean()).isTrue();
      assertThat(settled.get("runs_in_flight").asBoolean()).isTrue();
      assertThat(counts(settled, hook).get("passed").asLong()).isEqualTo(20);
      JsonNode split = counts(settled, "split");
      assertThat(split.get("passed").asLong()).isEqualTo(20);
      long a = split.at("/branches/0/passed").asLong();
      long b = split.at("/branches/1/passed").asLong();
      assertThat(split.at("/branches/0/label").asString()).isEqualTo("A");
      assertThat(a + b).isEqualTo(20);
      assertThat(counts(settled, "wait").get("waiting").asLong()).isEqualTo(a);
      assertThat(counts(settled, "call").get("failed").asLong()).isEqualTo(b);
      assertThat(counts(settled, "call").get("label").asString()).isEqualTo("http_request call");
      assertThat(counts(settled, "wait").get("goal_met").asLong()).isZero();
      assertThat(counts(settled, "wait").get("branches").isNull()).isTrue();
      List<Long> byRun =
          runs.stream()
              .map(
                  id ->
                      tenant
                          .api()
                          .get("/api/v1/automation-runs/" + id)
                          .at("/run/node_log/1/output/branch")
                          .asString())
              .map(branch -> branch.equals("A") ? 1L : 0L)
              .toList();
      assertThat(byRun.stream().mapToLong(Long::longValue).sum())
          .as("the branch counts are the runs' own")
          .isEqualTo(a);

      // a waiting run cancelled: its delay is skipped, no longer waiting
      String waiting =
          runs.stream()
              .filter(
                  id ->
                      "running"
                          .equals(
                              tenant
                                  .api()
                                  .get("/api/v1/automation-runs/" + id)
                                  .text("/run/status")))
              .findFirst()
              .orElseThrow();
      assertThat(
              tenant
                  .api()
                  .post("/api/v1/automation-runs/" + waiting + "/cancel", Map.of())
                  .status())
          .isEqualTo(200);
      JsonNode after =
          await()
              .atMost(Patience.EVENTUALLY)
              .until(
                  () -> stats(tenant, flowId, null).at("/versions/0"),
                  v -> counts(v, "wait").get("skipped").asLong() == 1);
      assertThat(counts(after, "wait").get("waiting").asLong()).isEqualTo(a - 1);

      // since: what ended from an hour from now on is nothing; what waits, waits
      JsonNode later = stats(tenant, flowId, Instant.now().plus(Duration.ofHours(2)).toString());
      assertThat(later.get("since").asString()).isNotNull();
      assertThat(counts(later.at("/versions/0"), hook).get("passed").asLong()).isZero();
      assertThat(counts(later.at("/versions/0"), "wait").get("waiting").asLong()).isEqualTo(a - 1);
      JsonNode earlier = stats(tenant, flowId, Instant.now().minus(Duration.ofDays(3)).toString());
      assertThat(counts(earlier.at("/versions/0"), hook).get("passed").asLong()).isEqualTo(20);
    }
  }

  @Test
  void anOlderVersionThatRunsStillRunOnIsCountedBesideTheCurrentOne() {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    Map<String, Object> waits = Flows.chain(hook, node("wait", "delay", Map.of("delayDays", 1)));
    String flowId = activeAutomation(tenant.api(), waits);
    for (int i = 0; i < 6; i++) {
      fire(anonymous(), tenant.id(), hook, Map.of("n", i));
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> stats(tenant, flowId, null).at("/versions/0"),
            v -> counts(v, "wait").get("waiting").asLong() == 6);

    assertThat(tenant.api().put("/api/sequences/" + flowId + "/canvas", waits).status())
        .isEqualTo(200);

    JsonNode answer = stats(tenant, flowId, null);
    assertThat(answer.get("current_version").asInt()).isEqualTo(2);
    assertThat(answer.at("/versions").size()).isEqualTo(2);
    JsonNode current = answer.at("/versions/0");
    assertThat(current.get("version").asInt()).isEqualTo(2);
    assertThat(current.get("runs_in_flight").asBoolean()).isFalse();
    assertThat(counts(current, hook).get("passed").asLong()).isZero();
    JsonNode older = answer.at("/versions/1");
    assertThat(older.get("version").asInt()).isEqualTo(1);
    assertThat(older.get("current").asBoolean()).isFalse();
    assertThat(older.get("runs_in_flight").asBoolean()).isTrue();
    assertThat(counts(older, hook).get("passed").asLong()).isEqualTo(6);
    assertThat(counts(older, "wait").get("waiting").asLong()).isEqualTo(6);
  }

  @Test
  void aRewriteOfAnEntryInTheSameStateChangesNoCountAndAChangedStateMovesItsCount() {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    String flowId =
        activeAutomation(
            tenant.api(), Flows.chain(hook, node("wait", "delay", Map.of("delayDays", 1))));
    String runId = fire(anonymous(), tenant.id(), hook, Map.of());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> stats(tenant, flowId, null).at("/versions/0"),
            v -> counts(v, "wait").get("waiting").asLong() == 1);

    // a retried recording writes the same entries again, in one statement, as the recorder does
    jdbc.sql(
            """
            update run_node_log set output = output, completed_at = completed_at
            where run_id = :runId
            """)
        .param("runId", UUID.fromString(runId))
        .update();
    JsonNode same = stats(tenant, flowId, null).at("/versions/0");
    assertThat(counts(same, hook).get("passed").asLong()).isEqualTo(1);
    assertThat(counts(same, "wait").get("waiting").asLong()).isEqualTo(1);

    // the trigger's entry marked failed: it leaves passed and joins failed
    jdbc.sql(
            """
            update run_node_log set status = 'failed'
            where run_id = :runId and node_id = :hook
            """)
        .param("runId", UUID.fromString(runId))
        .param("hook", hook)
        .update();
    JsonNode moved = stats(tenant, flowId, null).at("/versions/0");
    assertThat(counts(moved, hook).get("passed").asLong()).isZero();
    assertThat(counts(moved, hook).get("failed").asLong()).isEqualTo(1);
    assertThat(counts(moved, "wait").get("waiting").asLong()).isEqualTo(1);
    cancel(tenant, runId);
  }

  private static void cancel(TenantClient tenant, String runId) {
    assertThat(tenant.api().post("/api/v1/automation-runs/" + runId + "/cancel", Map.of()).status())
        .isEqualTo(200);
  }

  @Test
  void anotherTenantsFlowIs404AndAKeyWithTheRunsScopeReadsTheStats() {
    TenantClient tenant = newTenant();
    try (LocalHttpServer peer = new LocalHttpServer()) {
      String flowId = activeAutomation(tenant.api(), flow(uniqueId("hook"), peer));
      ApiResponse otherTenants = newTenant().api().get("/api/sequences/" + flowId + "/stats");
      assertThat(otherTenants.status()).as(otherTenants.toString()).isEqualTo(404);
      assertThat(otherTenants.rawBody()).doesNotContain("versions");

      ApiResponse withRuns =
          keyFor(tenant.id(), List.of("automation_runs:read"), null)
              .get("/api/sequences/" + flowId + "/stats");
      assertThat(withRuns.status()).as(withRuns.toString()).isEqualTo(200);
      assertThat(withRuns.json().at("/versions/0/nodes").size()).isEqualTo(4);
    }
  }
}
