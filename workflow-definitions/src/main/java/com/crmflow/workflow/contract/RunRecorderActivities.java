package com.crmflow.workflow.contract;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.List;
import java.util.Map;

/** Mirrors a run into PostgreSQL. Hosted by api-server, which owns the run records. */
@ActivityInterface
public interface RunRecorderActivities {

  /** Inserts or replaces the entry (run id, seq): idempotent under activity retries. */
  @ActivityMethod(name = "record_node")
  void recordNode(String runId, NodeLogEntry entry);

  /**
   * Inserts or replaces each entry, like {@link #recordNode}. A running entry never replaces a
   * finished one, so batches that reach the database out of order cannot undo progress.
   */
  @ActivityMethod(name = "record_nodes")
  void recordNodes(String runId, List<NodeLogEntry> entries);

  /**
   * Writes the last entries and ends the run, in one transaction.
   *
   * @param exit why a completed run ended before its last node ({@code {reason: goal, at_node}}),
   *     or null (and for runs ended before it existed)
   */
  @ActivityMethod(name = "record_run_end")
  void endRun(
      String runId,
      List<NodeLogEntry> entries,
      String status,
      String error,
      Map<String, Object> exit);

  /** Sets the run's final status, error and completed_at. */
  @ActivityMethod(name = "record_run_finished")
  void finishRun(String runId, String status, String error);

  /**
   * Writes the entries (those buffered and the one that says the run moved) and the move: the run
   * record's version becomes the target, the version it left joins those it ran before, the counts
   * of the nodes it waits at follow it, and a wait_until's watch names the node it waits at now;
   * one transaction. A move recorded already changes nothing.
   */
  @ActivityMethod(name = "record_run_moved")
  void recordMove(String runId, List<NodeLogEntry> entries, RunMoveResult moved);
}
