package com.crmflow.workflow.node;

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
import java.util.Objects;
import java.util.function.Function;

/**
 * How a node type calls the activities it declares ({@link NodeExecutor#activities}), in workflow
 * code: a stub named after its node in the Temporal UI, on the declared task queue, with a timeout
 * and retries ({@link Options#DEFAULT} unless the type gives its own), and for an activity declared
 * {@link NodeActivity#local() local} a local call when the run and its workflow task allow it.
 */
public final class NodeActivities {

  /**
   * In a run with local activities ({@code RunInput#localActivities}) and this change, the calls of
   * {@link #call} to an activity declared local (crm_update, the email node's reads and booking, a
   * goal's record watch, a send window's read) run as local activities in the workflow task that
   * reaches them; in a run without it they are activities of their queue, each a workflow task of
   * its own. The email's send is an activity of the integrations queue on both paths: a local
   * activity runs again when its workflow task fails, and a message never goes out twice.
   */
  static final String CRM_CALLS_LOCAL = "crm-calls-local";

  /** A local call's request larger than this is left out of its marker. */
  private static final long REQUEST_IN_MARKER_BYTES = 64 * 1024;

  /**
   * A call's timeout (start to close, each attempt) and retries.
   *
   * @param timeout how long one attempt may take
   * @param retry how it is tried again; a failure whose type it names as not retried is final
   */
  public record Options(Duration timeout, RetryOptions retry) {

    /**
     * 30 seconds an attempt, ten attempts from one second apart to two minutes; the crm activities'
     * refusals (not found, rejected) are final, as is any non-retryable {@code ApplicationFailure}
     * an activity throws.
     */
    public static final Options DEFAULT =
        new Options(
            Duration.ofSeconds(30),
            RetryOptions.newBuilder()
                .setInitialInterval(Duration.ofSeconds(1))
                .setBackoffCoefficient(2)
                .setMaximumInterval(Duration.ofMinutes(2))
                .setMaximumAttempts(10)
                .setDoNotRetry(
                    CrmRecordActivities.REJECTED,
                    ChatActivities.REJECTED,
                    EmailBookActivities.NOT_FOUND)
                .build());

    public Options {
      Objects.requireNonNull(timeout, "timeout");
      Objects.requireNonNull(retry, "retry");
    }
  }

  private NodeActivities() {}

  /** A stub of the activity on its queue, named after its node, with the default options. */
  public static <T> T stub(NodeActivity<T> activity, CanvasNode node) {
    return stub(activity, node, Options.DEFAULT);
  }

  /** A stub of the activity on its queue, named after its node in the Temporal UI. */
  public static <T> T stub(NodeActivity<T> activity, CanvasNode node, Options options) {
    return Workflow.newActivityStub(
        activity.activities(),
        ActivityOptions.newBuilder()
            .setTaskQueue(activity.taskQueue())
            .setStartToCloseTimeout(options.timeout())
            .setSummary(summary(node))
            .setRetryOptions(options.retry())
            .build());
  }

  /**
   * A local stub of the activity (declared {@link NodeActivity#local() local}), named after its
   * node: for a type that weighs its calls against the workflow task's budget itself.
   *
   * @param requestInMarker whether the call's arguments are kept in its marker (and so show in the
   *     Temporal UI)
   */
  public static <T> T localStub(
      NodeActivity<T> activity, CanvasNode node, Options options, boolean requestInMarker) {
    if (!activity.local()) {
      throw new IllegalArgumentException(
          activity.activities().getName() + " is not declared local: no worker of runs hosts it");
    }
    return Workflow.newLocalActivityStub(
        activity.activities(),
        LocalActivityOptions.newBuilder()
            .setStartToCloseTimeout(options.timeout())
            .setSummary(summary(node))
            .setRetryOptions(localRetries(options.retry()))
            .setDoNotIncludeArgumentsIntoMarker(!requestInMarker)
            .build());
  }

  /**
   * The retries of a local activity. The SDK takes a local activity whose attempts are unlimited
   * (maximum attempts 0, the default) and that has no schedule-to-close timeout for one with no
   * retry policy, and does not try it again after a failure (temporalio/sdk-java#1727): unlimited
   * is given to it as {@link Integer#MAX_VALUE} attempts.
   */
  public static RetryOptions localRetries(RetryOptions retry) {
    return retry.getMaximumAttempts() > 0
        ? retry
        : RetryOptions.newBuilder(retry).setMaximumAttempts(Integer.MAX_VALUE).build();
  }

  /** As {@link #call(NodeActivity, Options, CanvasNode, NodeRun, Function, Object...)}. */
  public static <T, R> R call(
      NodeActivity<T> activity,
      CanvasNode node,
      NodeRun run,
      Function<T, R> call,
      Object... arguments) {
    return call(activity, Options.DEFAULT, node, run, call, arguments);
  }

  /**
   * Calls an activity: as a local activity when it is declared {@link NodeActivity#local() local},
   * the run's worker hosts local activities and the current workflow task has room for the answer
   * ({@value #CRM_CALLS_LOCAL}, {@link WorkflowTaskBudget}), else through its queue. Both are
   * retried the same way. A local call runs again when its workflow task fails: a call made here
   * locally reads, or writes what it would write again the same way (the crm calls book once per
   * (run, node), or set the same values again).
   *
   * @param call what to do with the stub: one call of one of its methods
   * @param arguments the call's arguments, sized for its marker
   */
  public static <T, R> R call(
      NodeActivity<T> activity,
      Options options,
      CanvasNode node,
      NodeRun run,
      Function<T, R> call,
      Object... arguments) {
    if (!activity.local() || !run.input().runsLocalActivities() || !run.since(CRM_CALLS_LOCAL)) {
      return call.apply(stub(activity, node, options));
    }
    long requestBytes = 0;
    for (Object argument : arguments) {
      requestBytes += HistoryPayloads.bytes(argument);
    }
    boolean requestInMarker = requestBytes <= REQUEST_IN_MARKER_BYTES;
    long reserved = WorkflowTaskBudget.ANSWER_BYTES + (requestInMarker ? requestBytes : 0);
    if (!run.reserveAnswer(reserved)) {
      return call.apply(stub(activity, node, options));
    }
    long carried = requestInMarker ? requestBytes : 0;
    try {
      R answer = call.apply(localStub(activity, node, options, requestInMarker));
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
