package com.crmflow.workflow.run;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Mirrors a run into PostgreSQL. Hosted by api-server, which owns the run records. */
@ActivityInterface
public interface RunRecorderActivities {

  /** Inserts or replaces the entry (run id, seq): idempotent under activity retries. */
  @ActivityMethod(name = "record_node")
  void recordNode(String runId, NodeLogEntry entry);

  /** Sets the run's final status, error and completed_at. */
  @ActivityMethod(name = "record_run_finished")
  void finishRun(String runId, String status, String error);
}
