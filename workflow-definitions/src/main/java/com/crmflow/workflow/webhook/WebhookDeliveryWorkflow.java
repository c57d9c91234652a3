package com.crmflow.workflow.webhook;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** Delivers one event to one subscription, retrying on a schedule. Id {@code delivery-<id>}. */
@WorkflowInterface
public interface WebhookDeliveryWorkflow {

  static String workflowId(String deliveryId) {
    return "delivery-" + deliveryId;
  }

  /**
   * @return the delivery's end: delivered, failed (every attempt failed) or stopped
   */
  @WorkflowMethod
  String deliver(DeliveryInput input);
}
