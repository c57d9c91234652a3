package com.crmflow.api.webhook;

import com.crmflow.api.event.DispatchedEvent;
import com.crmflow.api.event.OutboxEventHandler;
import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.temporal.TenantFairness;
import com.crmflow.api.tracing.LinkedTraces;
import com.crmflow.shared.outbound.CauseHeader;
import com.crmflow.workflow.CrmSearchAttributes;
import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.webhook.DeliveryInput;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflow;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * Turns each outbox event into one stored delivery per active subscription that wants it (in the
 * dispatch transaction) and starts a WebhookDeliveryWorkflow for each after the commit. Stored
 * deliveries whose workflow did not start (Temporal down) are started by {@link #startStragglers}.
 */
@Component
class WebhookDeliveries implements OutboxEventHandler, SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(WebhookDeliveries.class);

  private final WebhookRepository webhooks;
  private final JsonColumns json;
  private final WorkflowClient temporal;
  private final List<Long> retryDelaysMillis;
  private final Duration reconcileInterval;
  private final LinkedTraces traces;

  WebhookDeliveries(
      WebhookRepository webhooks,
      JsonColumns json,
      WorkflowClient temporal,
      CrmProperties properties,
      LinkedTraces traces) {
    this.traces = traces;
    this.reconcileInterval = properties.runs().reconcileInterval();
    this.webhooks = webhooks;
    this.json = json;
    this.temporal = temporal;
    this.retryDelaysMillis =
        properties.webhooks().retrySchedule().stream().map(Duration::toMillis).toList();
  }

  @Override
  public List<Runnable> dispatch(List<DispatchedEvent> events) {
    Map<DispatchedEvent.Audience, List<UUID>> wanting = new HashMap<>();
    List<Runnable> starts = new ArrayList<>();
    for (DispatchedEvent event : events) {
      List<UUID> subscriptions =
          wanting.computeIfAbsent(
              event.audience(),
              audience -> webhooks.wanting(audience.tenantId(), audience.event()));
      if (subscriptions.isEmpty()) {
        continue;
      }
      String body = body(event.envelope());
      String cause =
          event.cause() == null
              ? null
              : new CauseHeader.Cause(event.cause().runId(), event.cause().nodeId()).runAndNode();
      for (UUID subscription : subscriptions) {
        webhooks
            .insertDelivery(
                event.tenantId(), subscription, event.eventId(), event.event(), body, cause)
            .ifPresent(
                delivery ->
                    starts.add(
                        // a delivery's trace starts with its workflow, linked to the event's write
                        () ->
                            traces.inNewTraceFrom(
                                "webhook delivery " + event.event(),
                                event.traceparent(),
                                () ->
                                    start(
                                        event.tenantId().toString(),
                                        delivery,
                                        event.event(),
                                        false))));
      }
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
   * @param takeOver whether an earlier workflow of this delivery may have made attempts (a
   *     straggler): the new one then goes on after them
   * @return false when Temporal could not be reached (the delivery stays for the next round)
   */
  boolean start(String tenantId, UUID deliveryId, String event, boolean takeOver) {
    WebhookDeliveryWorkflow workflow =
        temporal.newWorkflowStub(
            WebhookDeliveryWorkflow.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.AUTOMATION)
                .setWorkflowId(WebhookDeliveryWorkflow.workflowId(deliveryId.toString()))
                .setWorkflowIdReusePolicy(
                    WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
                .setMemo(Map.of("tenant_id", tenantId, "event", event, "delivery_id", deliveryId))
                .setPriority(TenantFairness.of(tenantId))
                .setTypedSearchAttributes(
                    SearchAttributes.newBuilder()
                        .set(CrmSearchAttributes.TENANT_ID, tenantId)
                        .set(CrmSearchAttributes.TRIGGER_KIND, event)
                        .set(CrmSearchAttributes.STATUS, "pending")
                        .build())
                .setStaticSummary("Webhook delivery of " + event + " · delivery " + deliveryId)
                .setStaticDetails(
                    "**Webhook delivery** `"
                        + deliveryId
                        + "` of event `"
                        + event
                        + "` for tenant `"
                        + tenantId
                        + "`. It is listed with its attempts under its subscription:"
                        + " `GET /api/v1/webhooks/subscriptions/{id}/deliveries`.")
                .build());
    try {
      WorkflowClient.start(
          workflow::deliver,
          takeOver
              ? takenOver(tenantId, deliveryId, event)
              : new DeliveryInput(tenantId, deliveryId.toString(), event, retryDelaysMillis));
    } catch (WorkflowExecutionAlreadyStarted already) {
      // started before
    } catch (RuntimeException e) {
      log.warn("Webhook delivery {} not started yet: {}", deliveryId, e.toString());
      return false;
    }
    webhooks.markStarted(deliveryId);
    return true;
  }

  /** The input of a delivery whose attempts so far are recorded: on with the next one, on time. */
  private DeliveryInput takenOver(String tenantId, UUID deliveryId, String event) {
    WebhookRepository.AttemptsMade made = webhooks.attemptsMade(deliveryId);
    if (made.last() == 0) {
      return new DeliveryInput(tenantId, deliveryId.toString(), event, retryDelaysMillis);
    }
    long left =
        made.last() < retryDelaysMillis.size()
            ? Duration.between(
                    OffsetDateTime.now(),
                    made.lastAt().plus(Duration.ofMillis(retryDelaysMillis.get(made.last()))))
                .toMillis()
            : 0;
    return new DeliveryInput(
        tenantId, deliveryId.toString(), event, retryDelaysMillis, made.last(), Math.max(0, left));
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar tasks) {
    tasks.addFixedDelayTask(this::startStragglers, reconcileInterval);
  }

  void startStragglers() {
    for (String[] delivery : webhooks.unstarted(5, 100)) {
      if (!start(delivery[1], UUID.fromString(delivery[0]), delivery[2], true)) {
        break;
      }
    }
  }
}
