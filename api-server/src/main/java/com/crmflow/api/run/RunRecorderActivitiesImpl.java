package com.crmflow.api.run;

import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunMoveResult;
import com.crmflow.workflow.contract.RunRecorderActivities;
import com.crmflow.workflow.contract.RunResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;

/** The run mirror: api-server owns the run records, so it hosts this activity (queue crm). */
@Component("runRecorderActivities")
class RunRecorderActivitiesImpl implements RunRecorderActivities {

  private final RunRepository runs;
  private final RunEnding ending;
  private final RunProgress admission;
  private final RunMoveRecording moves;

  RunRecorderActivitiesImpl(
      RunRepository runs, RunEnding ending, RunProgress admission, RunMoveRecording moves) {
    this.runs = runs;
    this.ending = ending;
    this.admission = admission;
    this.moves = moves;
  }

  @Override
  public void recordNode(String runId, NodeLogEntry entry) {
    runs.recordNodes(UUID.fromString(runId), List.of(entry));
  }

  @Override
  public void recordNodes(String runId, List<NodeLogEntry> entries) {
    UUID id = UUID.fromString(runId);
    runs.recordNodes(id, entries);
    // the interpreter records a delay as running, with its wake-up time, before it waits on it
    for (NodeLogEntry entry : entries) {
      if (RunResult.RUNNING.equals(entry.status())
          && entry.output() != null
          && entry.output().get("until") instanceof String until) {
        admission.waitsUntil(id, Instant.parse(until));
      }
    }
  }

  @Override
  public void endRun(
      String runId,
      List<NodeLogEntry> entries,
      String status,
      String error,
      Map<String, Object> exit) {
    ending.end(UUID.fromString(runId), entries, status, error, exit);
  }

  @Override
  public void recordMove(String runId, List<NodeLogEntry> entries, RunMoveResult moved) {
    moves.record(UUID.fromString(runId), entries, moved);
  }

  @Override
  public void finishRun(String runId, String status, String error) {
    ending.end(UUID.fromString(runId), List.of(), status, error);
  }
}
