package com.crmflow.workflow.webhook;

import java.util.List;

/**
 * One delivery of one event to one subscription.
 *
 * @param retryDelaysMillis the wait before each attempt (the first is usually 0); fixed when the
 *     delivery starts, so a changed default never alters deliveries in flight
 */
public record DeliveryInput(
    String tenantId, String deliveryId, String event, List<Long> retryDelaysMillis) {}
