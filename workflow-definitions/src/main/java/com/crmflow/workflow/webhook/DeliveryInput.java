package com.crmflow.workflow.webhook;

import java.util.List;

/**
 * One delivery of one event to one subscription.
 *
 * @param retryDelaysMillis the wait before each attempt (the first is usually 0); fixed when the
 *     delivery starts, so a changed default never alters deliveries in flight
 * @param attemptsMade attempts an earlier workflow of this delivery made (as its attempts are
 *     recorded); null or 0 for a new delivery
 * @param nextAttemptInMillis with attemptsMade: what is left of the wait before the next attempt
 */
public record DeliveryInput(
    String tenantId,
    String deliveryId,
    String event,
    List<Long> retryDelaysMillis,
    Integer attemptsMade,
    Long nextAttemptInMillis) {

  /** A new delivery. */
  public DeliveryInput(
      String tenantId, String deliveryId, String event, List<Long> retryDelaysMillis) {
    this(tenantId, deliveryId, event, retryDelaysMillis, null, null);
  }

  /** The first attempt this workflow makes. */
  public int firstAttempt() {
    return attemptsMade == null ? 1 : attemptsMade + 1;
  }
}
