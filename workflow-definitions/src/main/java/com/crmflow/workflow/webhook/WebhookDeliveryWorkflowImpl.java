package com.crmflow.workflow.webhook;

import com.crmflow.workflow.CrmSearchAttributes;
import com.crmflow.workflow.TaskQueues;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/**
 * Attempts the delivery after each delay of its schedule until one succeeds, the subscription is
 * disabled (by ten consecutive failures, counted by the activity) or the schedule ends. The waits
 * are durable timers, so a delivery survives worker restarts between attempts.
 */
public class WebhookDeliveryWorkflowImpl implements WebhookDeliveryWorkflow {

  /** Infrastructure trouble (database) is retried; HTTP failures are outcomes, not exceptions. */
  private static final ActivityOptions DELIVERY =
      ActivityOptions.newBuilder()
          .setTaskQueue(TaskQueues.CRM)
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(1))
                  .setMaximumInterval(Duration.ofMinutes(1))
                  .build())
          .build();

  /**
   * A delivery with this change sets its search attribute CrmStatus when it ends; in a delivery
   * without it CrmStatus does not show its end.
   */
  static final String STATUS_SEARCH_ATTRIBUTE = "status-search-attribute";

  @Override
  public String deliver(DeliveryInput input) {
    int attempts = input.retryDelaysMillis().size();
    int first = input.firstAttempt();
    for (int attempt = first; attempt <= attempts; attempt++) {
      // a delivery taken over from a lost workflow waits only what is left of its next delay
      Duration wait =
          Duration.ofMillis(
              attempt == first && first > 1
                  ? Math.max(
                      0, input.nextAttemptInMillis() == null ? 0 : input.nextAttemptInMillis())
                  : input.retryDelaysMillis().get(attempt - 1));
      if (wait.compareTo(Duration.ZERO) > 0) {
        Workflow.newTimer(
                wait,
                TimerOptions.newBuilder()
                    .setSummary("attempt " + attempt + " of " + attempts + " in " + wait)
                    .build())
            .get();
      }
      WebhookActivities activities =
          Workflow.newActivityStub(
              WebhookActivities.class,
              ActivityOptions.newBuilder(DELIVERY)
                  .setSummary(input.event() + " · attempt " + attempt)
                  .build());
      AttemptOutcome outcome = activities.attempt(input.deliveryId(), attempt);
      if (!AttemptOutcome.FAILED.equals(outcome.result())) {
        activities.finish(input.deliveryId(), outcome.result());
        showStatus(outcome.result());
        return outcome.result();
      }
    }
    Workflow.newActivityStub(WebhookActivities.class, DELIVERY)
        .finish(input.deliveryId(), AttemptOutcome.FAILED);
    showStatus(AttemptOutcome.FAILED);
    return AttemptOutcome.FAILED;
  }

  /** The delivery's end as its search attribute {@code CrmStatus}, for the Temporal UI. */
  private static void showStatus(String status) {
    if (Workflow.getVersion(STATUS_SEARCH_ATTRIBUTE, Workflow.DEFAULT_VERSION, 1) == 1) {
      Workflow.upsertTypedSearchAttributes(CrmSearchAttributes.STATUS.valueSet(status));
    }
  }
}
