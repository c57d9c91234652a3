package com.crmflow.api.nodestats;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.retention.Retention;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * GET /api/sequences/:id/stats: per node, the runs waiting there now and those that passed, failed
 * or skipped it, a split's runs per branch, for the current version and older ones runs still run
 * on.
 */
class NodeStatsApiTest extends ApiTest {

  @Autowired private Retention retention;

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

  /** webhook → wait a day. */
  private static Map<String, Object> waitsADay(String hook) {
    return Flows.chain(hook, node("wait", "delay", Map.of("delayDays", 1)));
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
    Map<String, Object> waits = waitsADay(hook);
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
    String flowId = activeAutomation(tenant.api(), waitsADay(hook));
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

  /**
   * The retention pass deletes the per-hour counts past crm.retention.hourly-counts-keep (31 days)
   * and keeps the days and the totals: a {@code since} that far back counts from the start of its
   * UTC day, before the pass and after it alike.
   */
  @Test
  void hourlyCountsPastTheirKeepGoAndASinceThatFarBackCountsFromItsDay() {
    TenantClient tenant = newTenant();
    String hook = uniqueId("hook");
    String flowId = activeAutomation(tenant.api(), waitsADay(hook));
    Instant today = Instant.now().truncatedTo(ChronoUnit.DAYS);
    Instant thisHour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    List<String> runs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      runs.add(fire(anonymous(), tenant.id(), hook, Map.of("n", i)));
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> stats(tenant, flowId, null).at("/versions/0"),
            // the trigger's entry is written as the call is accepted, the delay's once the run
            // starts
            v ->
                counts(v, hook).get("passed").asLong() == 3
                    && counts(v, "wait").get("waiting").asLong() == 3);
    // a since at a day's start reads that day's row, a since within it the day's hours: the same
    JsonNode fromToday = stats(tenant, flowId, today.toString());
    assertThat(fromToday.get("since").asString()).isEqualTo(today.toString());
    assertThat(counts(fromToday.at("/versions/0"), hook).get("passed").asLong()).isEqualTo(3);
    JsonNode fromThisHour = stats(tenant, flowId, thisHour.plusSeconds(60).toString());
    assertThat(fromThisHour.get("since").asString()).isEqualTo(thisHour.toString());
    assertThat(counts(fromThisHour.at("/versions/0"), hook).get("passed").asLong()).isEqualTo(3);
    // the triggers' entries as if they had all ended 40 days ago at 01:xx UTC (each count summed
    // into that day and hour, whichever hours and days they ended in)
    Instant day = Instant.now().minus(Duration.ofDays(40)).truncatedTo(ChronoUnit.DAYS);
    List<Map<String, Object>> ended =
        jdbc.sql(
                """
                select span, canvas_version, node_id, status, branch, shard, sum(n)::bigint as n
                from node_count where sequence_id = :flow and span in ('hour', 'day')
                group by span, canvas_version, node_id, status, branch, shard
                """)
            .param("flow", UUID.fromString(flowId))
            .query()
            .listOfRows();
    jdbc.sql("delete from node_count where sequence_id = :flow and span in ('hour', 'day')")
        .param("flow", UUID.fromString(flowId))
        .update();
    for (Map<String, Object> count : ended) {
      Instant since = "hour".equals(count.get("span")) ? day.plus(Duration.ofHours(1)) : day;
      jdbc.sql(
              """
              insert into node_count (sequence_id, span, since, canvas_version, node_id, status,
                                      branch, shard, n)
              values (:flow, :span, :since, :version, :node, :status, :branch, :shard, :n)
              """)
          .param("flow", UUID.fromString(flowId))
          .param("span", count.get("span"))
          .param("since", since.atOffset(ZoneOffset.UTC))
          .param("version", count.get("canvas_version"))
          .param("node", count.get("node_id"))
          .param("status", count.get("status"))
          .param("branch", count.get("branch"))
          .param("shard", count.get("shard"))
          .param("n", count.get("n"))
          .update();
    }
    // noon of that day: the hour rows would say nothing ended since, the day counts all three
    String noon = day.plus(Duration.ofHours(12)).toString();

    JsonNode before = stats(tenant, flowId, noon);
    assertThat(before.get("since").asString()).isEqualTo(day.toString());
    assertThat(counts(before.at("/versions/0"), hook).get("passed").asLong()).isEqualTo(3);

    retention.purge();
    assertThat(countRows(flowId, "hour")).as("the hours past their keep").isZero();
    assertThat(countRows(flowId, "day")).as("the day stays").isPositive();
    JsonNode after = stats(tenant, flowId, noon);
    assertThat(after.get("since").asString()).isEqualTo(day.toString());
    assertThat(counts(after.at("/versions/0"), hook).get("passed").asLong()).isEqualTo(3);
    assertThat(counts(after.at("/versions/0"), "wait").get("waiting").asLong()).isEqualTo(3);
    JsonNode allTime = stats(tenant, flowId, null).at("/versions/0");
    assertThat(counts(allTime, hook).get("passed").asLong()).isEqualTo(3);
    // a since within the keep still counts from its hour: nothing ended from an hour ago on
    Instant anHourAgo = Instant.now().minus(Duration.ofHours(1));
    JsonNode recent = stats(tenant, flowId, anHourAgo.toString());
    assertThat(recent.get("since").asString())
        .isEqualTo(anHourAgo.truncatedTo(ChronoUnit.HOURS).toString());
    assertThat(counts(recent.at("/versions/0"), hook).get("passed").asLong()).isZero();
    runs.forEach(id -> cancel(tenant, id));
  }

  private int countRows(String flowId, String span) {
    return jdbc.sql("select count(*) from node_count where sequence_id = :flow and span = :span")
        .param("flow", UUID.fromString(flowId))
        .param("span", span)
        .query(Integer.class)
        .single();
  }

  private static void cancel(TenantClient tenant, String runId) {
    assertThat(tenant.api().post("/api/v1/automation-runs/" + runId + "/cancel", Map.of()).status())
        .isEqualTo(200);
  }

  /**
   * ISO-8601 reads signed years of up to nine digits, past what the database and the day's
   * arithmetic hold: a since must have a year of four digits.
   */
  @Test
  void aSinceWhoseYearIsNotFourDigitsIsA400NamingIt() {
    TenantClient tenant = newTenant();
    String flowId = activeAutomation(tenant.api(), waitsADay(uniqueId("hook")));
    for (String since : List.of("+300000-01-01T00:00:00Z", "+999999999-12-31T12:00:00Z")) {
      ApiResponse answer =
          tenant
              .api()
              .get(
                  "/api/sequences/"
                      + flowId
                      + "/stats?since="
                      + URLEncoder.encode(since, StandardCharsets.UTF_8));
      assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
      assertThat(answer.text("/errors/0/field")).isEqualTo("since");
      assertThat(answer.text("/errors/0/message")).contains("ISO-8601");
    }
    assertThat(stats(tenant, flowId, "9999-12-31T12:00:00Z").get("since").asString())
        .as("the last day of year 9999 is a since like any other")
        .startsWith("9999-12-31T12:00");
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
