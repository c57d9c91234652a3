package com.crmflow.workflow.schedule;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Hosted by api-server (task queue crm), which owns the runs. */
@ActivityInterface
public interface ScheduleActivities {

  /**
   * Stores and starts the run of one fire; idempotent per (node, scheduledAt).
   *
   * @return the run id, or null when the automation is no longer active (nothing started)
   */
  @ActivityMethod(name = "start_scheduled_run")
  String startScheduledRun(
      String tenantId, String sequenceId, String nodeId, int canvasVersion, String scheduledAt);
}
