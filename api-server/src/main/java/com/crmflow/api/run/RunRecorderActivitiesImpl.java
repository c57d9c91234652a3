package com.crmflow.api.run;

import com.crmflow.workflow.run.NodeLogEntry;
import com.crmflow.workflow.run.RunRecorderActivities;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/** The run mirror: api-server owns the run records, so it hosts this activity (queue crm). */
@Component("runRecorderActivities")
class RunRecorderActivitiesImpl implements RunRecorderActivities {

  private final RunRepository runs;
  private final RunEnding ending;
  private final TransactionTemplate transaction;

  RunRecorderActivitiesImpl(RunRepository runs, RunEnding ending, TransactionTemplate transaction) {
    this.runs = runs;
    this.ending = ending;
    this.transaction = transaction;
  }

  @Override
  public void recordNode(String runId, NodeLogEntry entry) {
    runs.upsertNodeLog(UUID.fromString(runId), entry);
  }

  @Override
  public void recordNodes(String runId, List<NodeLogEntry> entries) {
    UUID id = UUID.fromString(runId);
    transaction.executeWithoutResult(status -> entries.forEach(e -> runs.upsertNodeLog(id, e)));
  }

  @Override
  public void endRun(String runId, List<NodeLogEntry> entries, String status, String error) {
    UUID id = UUID.fromString(runId);
    transaction.executeWithoutResult(
        tx -> {
          entries.forEach(e -> runs.upsertNodeLog(id, e));
          ending.end(id, status, error);
        });
  }

  @Override
  public void finishRun(String runId, String status, String error) {
    ending.end(UUID.fromString(runId), status, error);
  }
}
