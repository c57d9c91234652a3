package com.crmflow.workflow.schedule;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * The clock of an active automation with a schedule_trigger: sleeps until each fire time and starts
 * a run for it. Started when the automation is activated; terminated when it is paused, archived or
 * its canvas changes (then started again on the new version).
 */
@WorkflowInterface
public interface ScheduleTriggerWorkflow {

  static String workflowId(String tenantId, String nodeId) {
    return "schedule-" + tenantId + "-" + nodeId;
  }

  @WorkflowMethod
  void run(ScheduleInput input);
}
