package com.crmflow.workflow.node;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.ChatActivities;
import com.crmflow.workflow.action.CrmRecordActivities;
import com.crmflow.workflow.action.EmailBookActivities;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.history.HistoryPayloads;
import com.crmflow.workflow.history.WorkflowTaskBudget;
import io.temporal.activity.ActivityOptions;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.function.Function;

/** Activities on api-server's crm queue, for the nodes that touch its data. */
final class CrmActivities {

  /**
   * In a run with local activities ({@code RunInput#localActivities}) and this change, crm_update
   * and the email node's reads and booking run as local activities in the workflow task that
   * reaches them ({@link #call}); in a run without it they are activities of the crm queue, each a
   * workflow task of its own. The email's send is an activity of the integrations queue on both
   * paths: a local activity runs again when its workflow task fails, and a message never goes out
   * twice.
   */
  static final String CRM_CALLS_LOCAL = "crm-calls-local";

  /** A local call's request larger than this is left out of its marker. */
  private static final long REQUEST_IN_MARKER_BYTES = 64 * 1024;

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private static final RetryOptions RETRY =
      RetryOptions.newBuilder()
          .setInitialInterval(Duration.ofSeconds(1))
          .setBackoffCoefficient(2)
          .setMaximumInterval(Duration.ofMinutes(2))
          .setMaximumAttempts(10)
          .setDoNotRetry(
              CrmRecordActivities.REJECTED, ChatActivities.REJECTED, EmailBookActivities.NOT_FOUND)
          .build();

  private CrmActivities() {}

  /** A stub named after its node in the Temporal UI; refusals (not found, invalid) are final. */
  static <T> T stub(Class<T> activities, CanvasNode node) {
    return Workflow.newActivityStub(
        activities,
        ActivityOptions.newBuilder()
            .setTaskQueue(TaskQueues.CRM)
            .setStartToCloseTimeout(TIMEOUT)
            .setSummary(summary(node))
            .setRetryOptions(RETRY)
            .build());
  }

  /**
   * Calls a crm activity: as a local activity when the run's worker hosts the crm activities and
   * the current workflow task has room for the answer ({@value #CRM_CALLS_LOCAL}, {@link
   * WorkflowTaskBudget}), else through the crm queue. Both are retried the same way. The calls made
   * here read, book once per (run, node), or apply crm_update's patch, which sets the same values
   * again when run again with its workflow task (a change made in between by someone else is
   * overwritten, as a retried activity would); an event is emitted only on an actual change.
   *
   * @param arguments the call's arguments, sized for its marker
   */
  static <T, R> R call(
      Class<T> activities, CanvasNode node, NodeRun run, Function<T, R> call, Object... arguments) {
    if (!run.input().runsLocalActivities() || !run.since(CRM_CALLS_LOCAL)) {
      return call.apply(stub(activities, node));
    }
    long requestBytes = 0;
    for (Object argument : arguments) {
      requestBytes += HistoryPayloads.bytes(argument);
    }
    boolean requestInMarker = requestBytes <= REQUEST_IN_MARKER_BYTES;
    long reserved = WorkflowTaskBudget.ANSWER_BYTES + (requestInMarker ? requestBytes : 0);
    if (!run.reserveAnswer(reserved)) {
      return call.apply(stub(activities, node));
    }
    long carried = requestInMarker ? requestBytes : 0;
    try {
      R answer =
          call.apply(
              Workflow.newLocalActivityStub(
                  activities,
                  LocalActivityOptions.newBuilder()
                      .setStartToCloseTimeout(TIMEOUT)
                      .setSummary(summary(node))
                      .setRetryOptions(RETRY)
                      .setDoNotIncludeArgumentsIntoMarker(!requestInMarker)
                      .build()));
      carried += HistoryPayloads.bytes(answer);
      return answer;
    } finally {
      run.answerLanded(reserved, carried);
    }
  }

  private static String summary(CanvasNode node) {
    return node.type() + " · " + NodeConfig.label(node);
  }
}
