package com.crmflow.workflow.node;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.ChatActivities;
import com.crmflow.workflow.action.CrmRecordActivities;
import com.crmflow.workflow.action.EmailBookActivities;
import com.crmflow.workflow.canvas.CanvasNode;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/** Activities on api-server's crm queue, for the nodes that touch its data. */
final class CrmActivities {

  private CrmActivities() {}

  /** A stub named after its node in the Temporal UI; refusals (not found, invalid) are final. */
  static <T> T stub(Class<T> activities, CanvasNode node) {
    return Workflow.newActivityStub(
        activities,
        ActivityOptions.newBuilder()
            .setTaskQueue(TaskQueues.CRM)
            .setStartToCloseTimeout(Duration.ofSeconds(30))
            .setSummary(node.type() + " · " + NodeConfig.label(node))
            .setRetryOptions(
                RetryOptions.newBuilder()
                    .setInitialInterval(Duration.ofSeconds(1))
                    .setBackoffCoefficient(2)
                    .setMaximumInterval(Duration.ofMinutes(2))
                    .setMaximumAttempts(10)
                    .setDoNotRetry(
                        CrmRecordActivities.REJECTED,
                        ChatActivities.REJECTED,
                        EmailBookActivities.NOT_FOUND)
                    .build())
            .build());
  }
}
