package com.crmflow.api.webhook;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.auth.RequiresScope;
import com.crmflow.api.auth.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
import com.crmflow.workflow.event.EventNames;
import java.util.LinkedHashMap;
import java.util.Map;
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
  Map<String, Object> subscribe(Caller caller, @RequestBody JsonNode body) {
    return Map.of(
        "subscription",
        service.create(caller.tenantId(), JsonBodies.requireObject(body)).created());
  }

  @GetMapping("/subscribe")
  @RequiresScope(Scope.WEBHOOKS_WRITE)
  Map<String, Object> list(Caller caller) {
    Map<String, Object> response = new LinkedHashMap<>();
    response.put(
        "subscriptions",
        webhooks.list(caller.tenantId()).stream().map(WebhookSubscription::listed).toList());
    response.put("available_events", EventNames.ALL);
    return response;
  }

  @PatchMapping("/subscriptions/{id}")
  @RequiresScope(Scope.WEBHOOKS_WRITE)
  Map<String, Object> patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    return Map.of(
        "subscription",
        service.patch(caller.tenantId(), id, JsonBodies.requireObject(body)).listed());
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
  Map<String, Object> deliveries(
      Caller caller,
      @PathVariable UUID id,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    Paging paging = Paging.of(limit, offset);
    webhooks
        .find(caller.tenantId(), id)
        .orElseThrow(() -> ApiException.notFound("Webhook subscription", id));
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("deliveries", webhooks.deliveries(id, paging.limit(), paging.offset()));
    response.put("limit", paging.limit());
    response.put("offset", paging.offset());
    return response;
  }
}
