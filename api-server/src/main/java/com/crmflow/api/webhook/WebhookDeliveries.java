package com.crmflow.api.webhook;

import com.crmflow.api.embedded.EmbeddedTemporal;
import com.crmflow.api.event.DispatchedEvent;
import com.crmflow.api.event.OutboxEventHandler;
import com.crmflow.api.json.JsonColumns;
import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.webhook.DeliveryInput;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflow;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Turns each outbox event into one stored delivery per active subscription that wants it (in the
 * dispatch transaction) and starts a WebhookDeliveryWorkflow for each after the commit. Stored
 * deliveries whose workflow did not start (Temporal down) are started by {@link #startStragglers}.
 */
@Component
class WebhookDeliveries implements OutboxEventHandler {

  private static final Logger log = LoggerFactory.getLogger(WebhookDeliveries.class);

  private final WebhookRepository webhooks;
  private final JsonColumns json;
  private final WorkflowClient temporal;
  private final List<Long> retryDelaysMillis;

  /** Deliveries created before this moment were started by an earlier process. */
  private final OffsetDateTime processStart = OffsetDateTime.now();

  WebhookDeliveries(
      WebhookRepository webhooks,
      JsonColumns json,
      WorkflowClient temporal,
      @Value("${crm.webhooks.retry-schedule:0s,5s,5m,30m,2h,5h,10h,10h}") String retrySchedule) {
    this.webhooks = webhooks;
    this.json = json;
    this.temporal = temporal;
    this.retryDelaysMillis =
        Arrays.stream(retrySchedule.split(","))
            .map(String::trim)
            .map(DurationStyle::detectAndParse)
            .map(Duration::toMillis)
            .toList();
  }

  @Override
  public List<Runnable> dispatch(DispatchedEvent event) {
    List<UUID> subscriptions = webhooks.wanting(event.tenantId(), event.event());
    if (subscriptions.isEmpty()) {
      return List.of();
    }
    String body = body(event.envelope());
    List<Runnable> starts = new ArrayList<>();
    for (UUID subscription : subscriptions) {
      webhooks
          .insertDelivery(event.tenantId(), subscription, event.eventId(), event.event(), body)
          .ifPresent(
              delivery ->
                  starts.add(() -> start(event.tenantId().toString(), delivery, event.event())));
    }
    return starts;
  }

  /** The envelope in the spec's field order, serialised once: these are the bytes signed. */
  private String body(Map<String, Object> envelope) {
    Map<String, Object> ordered = new LinkedHashMap<>();
    ordered.put("event", envelope.get("event"));
    ordered.put("timestamp", envelope.get("timestamp"));
    ordered.put("tenant_id", envelope.get("tenant_id"));
    ordered.put("data", envelope.get("data"));
    return json.write(ordered);
  }

  /**
   * @return false when Temporal could not be reached (the delivery stays for the next round)
   */
  boolean start(String tenantId, UUID deliveryId, String event) {
    WebhookDeliveryWorkflow workflow =
        temporal.newWorkflowStub(
            WebhookDeliveryWorkflow.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.AUTOMATION)
                .setWorkflowId(WebhookDeliveryWorkflow.workflowId(deliveryId.toString()))
                .setWorkflowIdReusePolicy(
                    WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
                .setMemo(Map.of("tenant_id", tenantId, "event", event))
                .setStaticSummary(event + " → webhook delivery " + deliveryId)
                .build());
    try {
      WorkflowClient.start(
          workflow::deliver,
          new DeliveryInput(tenantId, deliveryId.toString(), event, retryDelaysMillis));
    } catch (WorkflowExecutionAlreadyStarted already) {
      // started before
    } catch (RuntimeException e) {
      log.warn("Webhook delivery {} not started yet: {}", deliveryId, e.toString());
      return false;
    }
    webhooks.markStarted(deliveryId);
    return true;
  }

  /**
   * On the embedded Temporal server (which keeps workflows in memory) a restart of the service lost
   * the workflows of pending deliveries: they are started again. Their schedule starts over; the
   * attempts already made are recorded, so they are neither sent nor counted again.
   */
  @EventListener(ApplicationReadyEvent.class)
  void serviceUp(ApplicationReadyEvent ready) {
    if (ready.getApplicationContext().containsBean(EmbeddedTemporal.BEAN_NAME)) {
      restartLost();
    }
  }

  /** Marks the pending deliveries of earlier processes to be started again; returns how many. */
  int restartLost() {
    int lost = webhooks.markUnstarted(processStart);
    if (lost > 0) {
      log.info(
          "Starting {} webhook deliveries again: the embedded Temporal server lost them", lost);
    }
    return lost;
  }

  @Scheduled(fixedDelayString = "${crm.runs.reconcile-interval:5s}")
  void startStragglers() {
    for (String[] delivery : webhooks.unstarted(5, 100)) {
      if (!start(delivery[1], UUID.fromString(delivery[0]), delivery[2])) {
        break;
      }
    }
  }
}
