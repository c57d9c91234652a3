package com.crmflow.workflow.webhook;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Hosted by api-server (task queue crm): it holds the subscriptions' signing secrets, which never
 * enter workflow history, and counts failures in the same transaction that records an attempt.
 */
@ActivityInterface
public interface WebhookActivities {

  /**
   * POSTs the delivery's stored body, signed, and records the attempt and the subscription's
   * failure count. Attempt numbers make it idempotent: repeating a recorded attempt returns its
   * outcome without sending again.
   */
  @ActivityMethod(name = "deliver_webhook")
  AttemptOutcome attempt(String deliveryId, int attempt);

  /** Marks the delivery delivered, failed (retries exhausted) or stopped. */
  @ActivityMethod(name = "finish_webhook_delivery")
  void finish(String deliveryId, String status);
}
