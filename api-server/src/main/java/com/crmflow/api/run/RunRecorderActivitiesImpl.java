package com.crmflow.api.run;

import com.crmflow.workflow.run.NodeLogEntry;
import com.crmflow.workflow.run.RunRecorderActivities;
import java.util.UUID;
import org.springframework.stereotype.Component;

/** The run mirror: api-server owns the run records, so it hosts this activity (queue crm). */
@Component("runRecorderActivities")
class RunRecorderActivitiesImpl implements RunRecorderActivities {

  private final RunRepository runs;

  RunRecorderActivitiesImpl(RunRepository runs) {
    this.runs = runs;
  }

  @Override
  public void recordNode(String runId, NodeLogEntry entry) {
    runs.upsertNodeLog(UUID.fromString(runId), entry);
  }

  @Override
  public void finishRun(String runId, String status, String error) {
    runs.finish(UUID.fromString(runId), status, error);
  }
}
