package com.crmflow.api.webhook;

import com.crmflow.api.temporal.MirroredRecords;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflow;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Webhook deliveries, for the {@link com.crmflow.api.temporal.ClosedWorkflowSweep}: a pending
 * delivery whose workflow was closed in Temporal (terminated in the Temporal UI, say) makes no more
 * attempts, so it ends {@code stopped}, its last_error saying how the workflow closed.
 */
@Component
class DeliveriesClosedElsewhere implements MirroredRecords {

  private final WebhookRepository webhooks;

  DeliveriesClosedElsewhere(WebhookRepository webhooks) {
    this.webhooks = webhooks;
  }

  @Override
  public String kind() {
    return "webhook delivery";
  }

  @Override
  public List<Open> openAfter(UUID afterId, Duration minimumAge, int limit) {
    return webhooks.pendingStartedAfter(afterId, (int) minimumAge.toSeconds(), limit).stream()
        .map(id -> new Open(id, WebhookDeliveryWorkflow.workflowId(id.toString()), null))
        .toList();
  }

  @Override
  public Optional<Open> openFor(String workflowId, String runIdMemo, Duration minimumAge) {
    String prefix = WebhookDeliveryWorkflow.workflowId("");
    if (!workflowId.startsWith(prefix)) {
      return Optional.empty();
    }
    UUID id;
    try {
      id = UUID.fromString(workflowId.substring(prefix.length()));
    } catch (IllegalArgumentException notADelivery) {
      return Optional.empty();
    }
    return webhooks.pendingStarted(id, (int) minimumAge.toSeconds())
        ? Optional.of(new Open(id, workflowId, null))
        : Optional.empty();
  }

  @Override
  public boolean endClosed(Open delivery, ClosedExecution closed) {
    return webhooks.stop(delivery.id(), closed.description());
  }
}
