package com.crmflow.api.webhook;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.flow.FlowScopes;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
import com.crmflow.workflow.event.EventNames;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Webhook subscriptions (the spec's two endpoints, plus PATCH, DELETE and deliveries). */
@RestController
@RequestMapping("/api/v1/webhooks")
class WebhookController {

  private final WebhookSubscriptionService service;
  private final WebhookRepository webhooks;

  WebhookController(WebhookSubscriptionService service, WebhookRepository webhooks) {
    this.service = service;
    this.webhooks = webhooks;
  }

  @PostMapping("/subscribe")
  @RequiresScope(Scope.WEBHOOKS_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  SubscriptionCreated subscribe(
      Caller caller,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = SubscriptionInput.class)))
          @RequestBody
          JsonNode body) {
    JsonNode input = JsonBodies.requireObject(body);
    FlowScopes.requireReadsEvents(caller, eventNames(input));
    return new SubscriptionCreated(service.create(caller.tenantId(), input).created());
  }

  @GetMapping("/subscribe")
  @RequiresScope(Scope.WEBHOOKS_WRITE)
  SubscriptionList list(Caller caller) {
    return new SubscriptionList(
        webhooks.list(caller.tenantId()).stream().map(WebhookSubscription::listed).toList(),
        EventNames.ALL);
  }

  @PatchMapping("/subscriptions/{id}")
  @RequiresScope(Scope.WEBHOOKS_WRITE)
  SubscriptionAnswer patch(
      Caller caller,
      @PathVariable UUID id,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = SubscriptionPatch.class)))
          @RequestBody
          JsonNode body) {
    JsonNode input = JsonBodies.requireObject(body);
    List<String> events = new ArrayList<>(eventNames(input));
    if (input.has("url") || input.has("secret") || input.has("is_active")) {
      // where, signed how and whether events go out is changed: the key must be able to read the
      // records of the subscription's events and of its pending deliveries (which a change of url
      // or secret ends), including those of events it no longer lists
      webhooks
          .find(caller.tenantId(), id)
          .ifPresent(
              stored -> {
                events.addAll(stored.events());
                events.addAll(webhooks.pendingEvents(caller.tenantId(), id));
              });
    }
    FlowScopes.requireReadsEvents(caller, events);
    return new SubscriptionAnswer(service.patch(caller.tenantId(), id, input).listed());
  }

  /**
   * The strings of the body's {@code events} array (none when it has none, or of another shape).
   */
  private static List<String> eventNames(JsonNode body) {
    JsonNode events = body.get("events");
    if (events == null || !events.isArray()) {
      return List.of();
    }
    return events.valueStream().filter(JsonNode::isString).map(JsonNode::asString).toList();
  }

  @DeleteMapping("/subscriptions/{id}")
  @RequiresScope(Scope.WEBHOOKS_WRITE)
  @ResponseStatus(HttpStatus.NO_CONTENT)
  void delete(Caller caller, @PathVariable UUID id) {
    service.delete(caller.tenantId(), id);
  }

  /** {@code {deliveries: [{id, event, status, attempts, last_status_code, last_error, ...}]}}. */
  @GetMapping("/subscriptions/{id}/deliveries")
  @RequiresScope(Scope.WEBHOOKS_WRITE)
  DeliveryPage deliveries(
      Caller caller,
      @PathVariable UUID id,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    Paging paging = Paging.of(limit, offset);
    webhooks
        .find(caller.tenantId(), id)
        .orElseThrow(() -> ApiException.notFound("Webhook subscription", id));
    return new DeliveryPage(
        webhooks.deliveries(id, paging.limit(), paging.offset()), paging.limit(), paging.offset());
  }

  /** {@code {deliveries, limit, offset}}. */
  record DeliveryPage(List<WebhookRepository.Delivery> deliveries, int limit, int offset) {}

  /** {@code {subscription}}: the spec's create answer. */
  record SubscriptionCreated(WebhookSubscription.CreatedSubscription subscription) {}

  /** {@code {subscription}}. */
  record SubscriptionAnswer(WebhookSubscription.ListedSubscription subscription) {}

  /** {@code {subscriptions, available_events}}. */
  record SubscriptionList(
      List<WebhookSubscription.ListedSubscription> subscriptions, List<String> availableEvents) {}

  /** The body of POST /webhooks/subscribe. */
  record SubscriptionInput(
      @Schema(
              requiredMode = Schema.RequiredMode.REQUIRED,
              format = "uri",
              maxLength = 2048,
              description = "an HTTPS URL")
          String url,
      @Schema(
              requiredMode = Schema.RequiredMode.REQUIRED,
              description = "event names, from available_events")
          List<String> events,
      @Schema(
              writeOnly = true,
              description = "signs each delivery (X-Webhook-Signature); never shown again")
          String secret) {}

  /**
   * The body of PATCH /webhooks/subscriptions/{id}: the fields to change; a null secret removes it.
   */
  record SubscriptionPatch(
      @Schema(format = "uri", maxLength = 2048) String url,
      List<String> events,
      @Schema(writeOnly = true) String secret,
      Boolean isActive) {}
}
