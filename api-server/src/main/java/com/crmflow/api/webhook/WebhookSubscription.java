package com.crmflow.api.webhook;

import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A tenant's subscription to events (the spec's Webhook subscription); the secret stays inside. */
public record WebhookSubscription(
    UUID id,
    UUID tenantId,
    String url,
    List<String> events,
    boolean hasSecret,
    boolean isActive,
    int failureCount,
    OffsetDateTime lastTriggeredAt,
    OffsetDateTime createdAt) {

  /** The create answer: {id, url, events, is_active}. */
  Map<String, Object> created() {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("id", id);
    view.put("url", url);
    view.put("events", events);
    view.put("is_active", isActive);
    return view;
  }

  /** The list (and PATCH) shape: plus failure_count, last_triggered_at, has_secret, created_at. */
  Map<String, Object> listed() {
    Map<String, Object> view = created();
    view.put("failure_count", failureCount);
    view.put("last_triggered_at", lastTriggeredAt);
    view.put("has_secret", hasSecret);
    view.put("created_at", createdAt);
    return view;
  }
}
