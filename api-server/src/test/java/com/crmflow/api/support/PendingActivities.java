package com.crmflow.api.support;

import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;

/** What the Temporal server reports of a workflow's pending activities. */
public final class PendingActivities {

  private PendingActivities() {}

  /**
   * Failed attempts so far of the workflow's pending activity of that type (0: none failed, or the
   * workflow is not started yet: a trigger answers once the run is recorded, and the workflow
   * starts right after).
   */
  public static int failedAttempts(
      WorkflowClient temporal, String workflowId, String activityType) {
    try {
      return failedAttemptsOfStarted(temporal, workflowId, activityType);
    } catch (WorkflowNotFoundException notStartedYet) {
      return 0;
    }
  }

  private static int failedAttemptsOfStarted(
      WorkflowClient temporal, String workflowId, String activityType) {
    return temporal
        .newUntypedWorkflowStub(workflowId)
        .describe()
        .getRawDescription()
        .getPendingActivitiesList()
        .stream()
        .filter(a -> a.getActivityType().getName().equals(activityType) && a.hasLastFailure())
        .mapToInt(a -> a.getAttempt() - 1)
        .max()
        .orElse(0);
  }
}
