package com.crmflow.api.run;

import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunMoveResult;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A run's move to another version of its flow, as its workflow records it ({@code
 * record_run_moved}), in one transaction: the entries it hands in (the last of the version it left,
 * and the one that says it moved), its record's version and the versions it ran before, the node
 * its waiting (or held) entries wait at now and its type, the counts of those entries per version
 * and node (they leave the version left and join the target), and the watch of a wait_until that
 * waits at a node of another id now. A move recorded already (the activity retried) changes nothing
 * but the entries, which are upserts.
 */
@Repository
class RunMoveRecording {

  private final JdbcClient jdbc;
  private final RunRepository runs;
  private final TransactionTemplate transaction;

  RunMoveRecording(JdbcClient jdbc, RunRepository runs, TransactionTemplate transaction) {
    this.jdbc = jdbc;
    this.runs = runs;
    this.transaction = transaction;
  }

  void record(UUID runId, List<NodeLogEntry> entries, RunMoveResult moved) {
    transaction.executeWithoutResult(
        status -> {
          Integer version =
              jdbc.sql("select canvas_version from automation_run where id = :id for update")
                  .param("id", runId)
                  .query(Integer.class)
                  .optional()
                  .orElse(null);
          if (version != null && version == moved.fromVersion() && moved.moved()) {
            UUID moveId = moveIdOf(entries);
            for (RunMoveResult.MovedNode node : moved.nodes()) {
              if (node.seq() != null) {
                count(runId, node.fromNode(), node.seq(), -1);
              }
            }
            jdbc.sql(
                    """
                    update automation_run set canvas_version = :to,
                        moved_from_versions = moved_from_versions || :from, moved_by = :moveId
                    where id = :id
                    """)
                .param("id", runId)
                .param("to", moved.toVersion())
                .param("from", moved.fromVersion())
                .param("moveId", moveId)
                .update();
            for (RunMoveResult.MovedNode node : moved.nodes()) {
              if (node.seq() != null) {
                jdbc.sql(
                        """
                        update run_node_log set node_id = :toNode,
                            node_type = coalesce(:toType, node_type)
                        where run_id = :id and seq = :seq and node_id = :fromNode
                        """)
                    .param("id", runId)
                    .param("seq", node.seq())
                    .param("fromNode", node.fromNode())
                    .param("toNode", node.toNode())
                    .param("toType", typeThere(entries, node))
                    .update();
                count(runId, node.toNode(), node.seq(), 1);
              }
              if (!node.fromNode().equals(node.toNode())) {
                jdbc.sql(
                        """
                        update record_watch set watcher = :toNode
                        where run_id = :id and watcher = :fromNode
                        """)
                    .param("id", runId)
                    .param("fromNode", node.fromNode())
                    .param("toNode", node.toNode())
                    .update();
              }
            }
          }
          runs.recordNodes(runId, entries);
        });
  }

  /**
   * Adds {@code delta} to the count of the run's entry {@code seq}, while it is running, under the
   * run's version now and {@code nodeId} (as the entries' trigger counts, see V43). The count rows
   * change when the transaction commits (V64), through the trigger that the entry's update in the
   * same transaction fires.
   */
  private void count(UUID runId, String nodeId, int seq, int delta) {
    jdbc.sql(
            """
            select node_count_apply(coalesce((
                select jsonb_agg(jsonb_build_object(
                           'run_id', l.run_id, 'node_id', :nodeId, 'status', l.status,
                           'branch', '', 'ended', null, 'delta', :delta))
                from run_node_log l
                where l.run_id = :id and l.seq = :seq and l.status = 'running'), '[]'::jsonb))
            """)
        .param("id", runId)
        .param("nodeId", nodeId)
        .param("seq", seq)
        .param("delta", delta)
        .query((rs, row) -> 1)
        .list();
  }

  /**
   * The type of the node an entry goes on at, when the run hands its entry in with the move (a
   * branch held before its node, which may go on at a node of another type); else null: a waiting
   * node goes on only at a node of its type.
   */
  private static String typeThere(List<NodeLogEntry> entries, RunMoveResult.MovedNode node) {
    for (NodeLogEntry entry : entries) {
      if (entry.seq() == node.seq() && entry.nodeId().equals(node.toNode())) {
        return entry.nodeType();
      }
    }
    return null;
  }

  /** The move that asked, as the entry that says the run moved names it. */
  private static UUID moveIdOf(List<NodeLogEntry> entries) {
    for (NodeLogEntry entry : entries) {
      if (entry.output() != null
          && entry.output().get("move_id") instanceof String id
          && entry.nodeId().startsWith("move:")) {
        try {
          return UUID.fromString(id);
        } catch (IllegalArgumentException notAMove) {
          return null;
        }
      }
    }
    return null;
  }
}
