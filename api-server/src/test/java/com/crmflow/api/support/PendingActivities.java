package com.crmflow.api.support;

import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;

/** What the Temporal server reports of a workflow's pending activities. */
public final class PendingActivities {

  private PendingActivities() {}

  /** Failed attempts so far of the workflow's pending activity of that type (0: none failed). */
  public static int failedAttempts(
      WorkflowClient temporal, String workflowId, String activityType) {
    return temporal
        .getWorkflowServiceStubs()
        .blockingStub()
        .describeWorkflowExecution(
            DescribeWorkflowExecutionRequest.newBuilder()
                .setNamespace(temporal.getOptions().getNamespace())
                .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                .build())
        .getPendingActivitiesList()
        .stream()
        .filter(a -> a.getActivityType().getName().equals(activityType) && a.hasLastFailure())
        .mapToInt(a -> a.getAttempt() - 1)
        .max()
        .orElse(0);
  }
}
