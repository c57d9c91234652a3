package com.crmflow.api.webhook;

import java.time.OffsetDateTime;
import java.util.List;
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

  /** The create answer: the spec's {id, url, events, is_active}. */
  public record CreatedSubscription(UUID id, String url, List<String> events, boolean isActive) {}

  /** The list (and PATCH) shape: the create answer plus what the service knows of it since. */
  public record ListedSubscription(
      UUID id,
      String url,
      List<String> events,
      boolean isActive,
      int failureCount,
      OffsetDateTime lastTriggeredAt,
      boolean hasSecret,
      OffsetDateTime createdAt) {}

  CreatedSubscription created() {
    return new CreatedSubscription(id, url, events, isActive);
  }

  ListedSubscription listed() {
    return new ListedSubscription(
        id, url, events, isActive, failureCount, lastTriggeredAt, hasSecret, createdAt);
  }
}
