package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.RowLocks.backendPid;
import static com.crmflow.api.support.RowLocks.someoneWaitingFor;
import static com.crmflow.api.support.RowLocks.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunRecorderActivities;
import com.crmflow.workflow.contract.RunResult;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The run mirror's writes against the real database: each recording is one statement, a repeated or
 * late recording never duplicates or undoes an entry, and a run counts as started once its workflow
 * has been heard from.
 */
class RunRecordingTest extends ApiTest {

  @Autowired private RunRecorderActivities recorder;
  @Autowired private RunRepository runs;
  @Autowired private DataSource dataSource;

  private static final String T0 = "2026-11-23T10:00:00.000Z";
  private static final String T1 = "2026-11-23T10:00:01.000Z";

  @Test
  void repeatedAndLateRecordingsNeitherDuplicateNorUndoEntries() {
    TenantClient tenant = newTenant();
    UUID runId = UUID.randomUUID();
    UUID sequenceId = UUID.fromString(SequenceSupport.automation(tenant.api(), "recorded"));
    runs.insert(
        new RunRepository.NewRun(
            runId, tenant.id(), sequenceId, 1, "in", "in", Map.of("a", 1), null, null));
    assertThat(workflowStarted(runId)).isFalse();

    NodeLogEntry waiting =
        new NodeLogEntry(
            2, "wait", "delay", RunResult.RUNNING, T0, null, Map.of("until", T1), null);
    recorder.recordNodes(runId.toString(), List.of(waiting));
    assertThat(workflowStarted(runId)).as("heard from its workflow").isTrue();
    assertThat(log(tenant, runId))
        .extracting(e -> e.get("status").asString())
        .containsExactly(RunResult.RUNNING);

    // the batch above travels again with the end (as when its activity was cancelled), so one
    // statement sees seq 2 twice: the finished entry wins
    NodeLogEntry waited =
        new NodeLogEntry(
            2, "wait", "delay", RunResult.COMPLETED, T0, T1, Map.of("waitedSeconds", 1), null);
    NodeLogEntry failed =
        new NodeLogEntry(3, "call", "http_request", RunResult.FAILED, T1, T1, null, "HTTP 410");
    recorder.endRun(
        runId.toString(), List.of(waiting, waited, failed), RunResult.COMPLETED, null, null);

    recorder.recordNodes(runId.toString(), List.of(waiting)); // late: must not undo seq 2
    recorder.endRun(runId.toString(), List.of(failed), RunResult.FAILED, "late", null); // repeated

    JsonNode run = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
    assertThat(run.get("status").asString()).isEqualTo(RunResult.COMPLETED);
    assertThat(run.get("error").isNull()).as(run.toString()).isTrue();
    assertThat(run.get("completed_at").isNull()).as(run.toString()).isFalse();
    List<JsonNode> log = log(tenant, runId);
    assertThat(log).hasSize(2);
    assertThat(log.get(0).get("nodeId").asString()).isEqualTo("wait");
    assertThat(log.get(0).get("status").asString()).isEqualTo(RunResult.COMPLETED);
    assertThat(log.get(0).get("completedAt").asString()).isEqualTo(T1);
    assertThat(log.get(0).at("/output/waitedSeconds").asInt()).isEqualTo(1);
    assertThat(log.get(1).get("nodeId").asString()).isEqualTo("call");
    assertThat(log.get(1).get("status").asString()).isEqualTo(RunResult.FAILED);
    assertThat(log.get(1).get("error").asString()).isEqualTo("HTTP 410");
  }

  @Test
  void aRunSilentPastTheGracePeriodIsProbedNotStartedTwice() {
    TenantClient tenant = newTenant();
    try (LocalHttpServer peer = new LocalHttpServer()) {
      peer.hold("/slow");
      int dueBefore = (int) prometheus("crm_trigger_admission_due");
      String trigger = SequenceSupport.uniqueId("silent");
      SequenceSupport.activeAutomation(
          tenant.api(),
          chain(
              trigger,
              node("call", "http_request", Map.of("method", "GET", "url", peer.url("/slow")))));
      String runId = SequenceSupport.fire(anonymous(), tenant.id(), trigger, Map.of("n", 1));

      // nothing recorded while the call hangs: the reconciler (1 s grace in tests) probes the run
      // with a start, which finds the workflow and marks the run
      await().atMost(Patience.EVENTUALLY).until(() -> workflowStarted(UUID.fromString(runId)));
      // the probe may be what started the workflow, its call then still on the way to the peer
      await().atMost(Patience.EVENTUALLY).until(() -> !peer.received("/slow").isEmpty());
      assertThat(peer.received("/slow")).hasSize(1);
      assertThat((int) prometheus("crm_trigger_admission_due"))
          .as("waiting on its peer: not due")
          .isEqualTo(dueBefore);

      peer.release("/slow");
      JsonNode run = SequenceSupport.awaitRun(tenant.api(), runId);
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo(RunResult.COMPLETED);
      assertThat(peer.received("/slow")).as("one workflow, one call").hasSize(1);
      assertThat((int) prometheus("crm_trigger_admission_due"))
          .as("ended: not due")
          .isEqualTo(dueBefore);
      assertThat(
              tenant
                  .api()
                  .get("/api/v1/automation-runs?sequence_id=" + run.get("sequence_id").asString())
                  .at("/runs")
                  .size())
          .isEqualTo(1);
    }
  }

  /**
   * Two runs of one flow in one shard finish the same two nodes, a delay and then a condition. One
   * run's batch writes both at once: one insert, whose counts take the condition's rows before the
   * delay's (key order). The other's reaches the database as its running delay's update and then
   * the condition's insert (as an upsert fires its update trigger, then its insert trigger):
   * counted statement by statement, it held the delay's rows while asking for the condition's, and
   * one of the two died with "deadlock detected". Counted at commit, both commit and every count is
   * exact.
   */
  @Test
  void twoRunsCountingTheSameNodesInOtherOrdersBothCommitWithExactCounts() throws Exception {
    TenantClient tenant = newTenant();
    UUID sequenceId = UUID.fromString(SequenceSupport.automation(tenant.api(), "counted"));
    UUID inParts = UUID.randomUUID();
    UUID atOnce = inTheSameShardAs(inParts);
    for (UUID runId : List.of(inParts, atOnce)) {
      runs.insert(
          new RunRepository.NewRun(
              runId, tenant.id(), sequenceId, 1, "in", "in", Map.of("a", 1), null, null));
    }
    NodeLogEntry waiting =
        new NodeLogEntry(2, "wait", "delay", RunResult.RUNNING, T0, null, Map.of(), null);
    NodeLogEntry waited =
        new NodeLogEntry(2, "wait", "delay", RunResult.COMPLETED, T0, T1, Map.of(), null);
    NodeLogEntry checked =
        new NodeLogEntry(3, "check", "condition", RunResult.COMPLETED, T1, T1, Map.of(), null);
    recorder.recordNodes(inParts.toString(), List.of(waiting));

    CompletableFuture<Void> recordedAtOnce;
    try (Connection parts = dataSource.getConnection()) {
      parts.setAutoCommit(false);
      update(
          parts,
          "update run_node_log set status = 'completed', completed_at = ? where run_id = ? and seq = 2",
          T1,
          inParts);
      recordedAtOnce =
          CompletableFuture.runAsync(
              () -> recorder.recordNodes(atOnce.toString(), List.of(waited, checked)));
      int pid = backendPid(parts);
      await()
          .atMost(Patience.EVENTUALLY)
          .until(() -> recordedAtOnce.isDone() || someoneWaitingFor(jdbc, pid));
      update(
          parts,
          """
          insert into run_node_log (run_id, tenant_id, seq, node_id, node_type, status,
                                    started_at, completed_at)
          values (?, ?, 3, 'check', 'condition', 'completed', ?, ?)
          """,
          inParts,
          tenant.id(),
          T1,
          T1);
      parts.commit();
    }
    recordedAtOnce.get(30, TimeUnit.SECONDS);

    assertThat(counts(sequenceId, "total"))
        .as("each run counted once at each node it finished, none still running")
        .containsOnly(
            Map.entry("check/completed", 2L),
            Map.entry("wait/completed", 2L),
            Map.entry("wait/running", 0L));
    assertThat(counts(sequenceId, "hour"))
        .containsOnly(Map.entry("check/completed", 2L), Map.entry("wait/completed", 2L));
    assertThat(counts(sequenceId, "day"))
        .containsOnly(Map.entry("check/completed", 2L), Map.entry("wait/completed", 2L));
  }

  /** A run id whose counts fall in the same shard as {@code runId}'s (V43: 4 shards by run). */
  private UUID inTheSameShardAs(UUID runId) {
    while (true) {
      UUID other = UUID.randomUUID();
      boolean same =
          jdbc.sql("select hashtext(cast(:a as text)) & 3 = hashtext(cast(:b as text)) & 3")
              .param("a", runId.toString())
              .param("b", other.toString())
              .query(Boolean.class)
              .single();
      if (same) {
        return other;
      }
    }
  }

  /** The flow's counts in {@code span}, summed over shards, by "node/status". */
  private Map<String, Long> counts(UUID sequenceId, String span) {
    Map<String, Long> counts = new TreeMap<>();
    jdbc.sql(
            """
            select node_id || '/' || status as state, sum(n) as n from node_count
            where sequence_id = :id and span = :span group by 1
            """)
        .param("id", sequenceId)
        .param("span", span)
        .query((rs, row) -> counts.put(rs.getString("state"), rs.getLong("n")))
        .list();
    return counts;
  }

  private boolean workflowStarted(UUID runId) {
    return jdbc.sql("select workflow_started from automation_run where id = :id")
        .param("id", runId)
        .query(Boolean.class)
        .single();
  }

  private static List<JsonNode> log(TenantClient tenant, UUID runId) {
    return tenant
        .api()
        .get("/api/v1/automation-runs/" + runId)
        .at("/run/node_log")
        .valueStream()
        .toList();
  }
}
