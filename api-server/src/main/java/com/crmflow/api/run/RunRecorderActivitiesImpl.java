package com.crmflow.api.run;

import com.crmflow.workflow.run.NodeLogEntry;
import com.crmflow.workflow.run.RunRecorderActivities;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;

/** The run mirror: api-server owns the run records, so it hosts this activity (queue crm). */
@Component("runRecorderActivities")
class RunRecorderActivitiesImpl implements RunRecorderActivities {

  private final RunRepository runs;
  private final RunEnding ending;

  RunRecorderActivitiesImpl(RunRepository runs, RunEnding ending) {
    this.runs = runs;
    this.ending = ending;
  }

  @Override
  public void recordNode(String runId, NodeLogEntry entry) {
    runs.recordNodes(UUID.fromString(runId), List.of(entry));
  }

  @Override
  public void recordNodes(String runId, List<NodeLogEntry> entries) {
    runs.recordNodes(UUID.fromString(runId), entries);
  }

  @Override
  public void endRun(String runId, List<NodeLogEntry> entries, String status, String error) {
    ending.end(UUID.fromString(runId), entries, status, error);
  }

  @Override
  public void finishRun(String runId, String status, String error) {
    ending.end(UUID.fromString(runId), List.of(), status, error);
  }
}
