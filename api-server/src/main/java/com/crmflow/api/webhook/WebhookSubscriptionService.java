package com.crmflow.api.webhook;

import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.shared.outbound.DestinationPolicy;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.event.EventNames;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;

/** Creating, changing and deleting subscriptions, with the limit of 10 active per tenant. */
@Service
class WebhookSubscriptionService {

  static final int MAX_ACTIVE = 10;
  static final int MAX_URL_LENGTH = 2048;
  static final int MAX_SECRET_LENGTH = 512;
  private static final Set<String> CREATE_FIELDS = Set.of("url", "events", "secret");
  private static final Set<String> PATCH_FIELDS = Set.of("url", "events", "secret", "is_active");

  private final WebhookRepository webhooks;
  private final SecretCipher cipher;
  private final DestinationPolicy destinations;

  WebhookSubscriptionService(
      WebhookRepository webhooks, SecretCipher cipher, DestinationPolicy destinations) {
    this.webhooks = webhooks;
    this.cipher = cipher;
    this.destinations = destinations;
  }

  @Transactional
  WebhookSubscription create(UUID tenantId, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    unknownFields(body, CREATE_FIELDS, problems);
    String url = url(body.get("url"), true, problems);
    List<String> events = events(body.get("events"), true, problems);
    String secret = secret(body.get("secret"), problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    webhooks.lockTenant(tenantId);
    requireRoomForOneMore(tenantId);
    return webhooks.insert(tenantId, url, events, secret == null ? null : cipher.encrypt(secret));
  }

  /**
   * PATCH {@code {url?, events?, secret?, is_active?}}: a {@code null} secret removes it; is_active
   * true re-enables a disabled subscription and resets its failure_count. A new url, or any {@code
   * secret} (set, changed or removed), ends the pending deliveries in the same transaction ({@link
   * DestinationChange}).
   */
  @Transactional
  WebhookSubscription patch(UUID tenantId, UUID id, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    unknownFields(body, PATCH_FIELDS, problems);
    String url = body.has("url") ? url(body.get("url"), true, problems) : null;
    List<String> events = body.has("events") ? events(body.get("events"), true, problems) : null;
    boolean clearSecret = body.has("secret") && body.get("secret").isNull();
    String secret = clearSecret ? null : secret(body.get("secret"), problems);
    Boolean active = null;
    if (body.has("is_active")) {
      if (!body.get("is_active").isBoolean()) {
        problems.add(new FieldProblem("is_active", "must be true or false"));
      } else {
        active = body.get("is_active").asBoolean();
      }
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    webhooks.lockTenant(tenantId);
    WebhookSubscription current =
        webhooks
            .find(tenantId, id)
            .orElseThrow(() -> ApiException.notFound("Webhook subscription", id));
    if (Boolean.TRUE.equals(active) && !current.isActive()) {
      requireRoomForOneMore(tenantId);
    }
    boolean urlChanged = url != null && !url.equals(current.url());
    boolean secretChanged = body.has("secret");
    WebhookSubscription changed =
        webhooks.update(
            tenantId,
            id,
            url,
            events,
            secret == null ? null : cipher.encrypt(secret),
            clearSecret,
            active,
            urlChanged || secretChanged);
    if (urlChanged || secretChanged) {
      webhooks.stopPendingOfEarlierDestinations(
          id, DestinationChange.ended(urlChanged, secretChanged));
    }
    return changed;
  }

  @Transactional
  void delete(UUID tenantId, UUID id) {
    if (!webhooks.delete(tenantId, id)) {
      throw ApiException.notFound("Webhook subscription", id);
    }
  }

  private void requireRoomForOneMore(UUID tenantId) {
    if (webhooks.countActive(tenantId) >= MAX_ACTIVE) {
      throw ApiException.unprocessable(
          "A tenant has at most "
              + MAX_ACTIVE
              + " active webhook subscriptions; delete or deactivate one first.",
          List.of(new FieldProblem("url", "the limit of " + MAX_ACTIVE + " active is reached")));
    }
  }

  private static void unknownFields(JsonNode body, Set<String> known, List<FieldProblem> problems) {
    body.propertyNames().stream()
        .filter(name -> !known.contains(name))
        .forEach(name -> problems.add(new FieldProblem(name, "is not a subscription field")));
  }

  private String url(JsonNode node, boolean required, List<FieldProblem> problems) {
    if (node == null || node.isNull()) {
      if (required) {
        problems.add(new FieldProblem("url", "is required"));
      }
      return null;
    }
    if (!node.isString() || node.asString().isBlank()) {
      problems.add(new FieldProblem("url", "must be an HTTPS URL"));
      return null;
    }
    String url = node.asString().trim();
    if (url.length() > MAX_URL_LENGTH) {
      problems.add(new FieldProblem("url", "must be at most " + MAX_URL_LENGTH + " characters"));
      return null;
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      problems.add(new FieldProblem("url", "is not a valid URL: " + e.getReason()));
      return null;
    }
    // java.net.URI leaves the host empty for spellings like 0x7f.0.0.1 or 127.1: judge those too
    String host = uri.getHost() != null ? uri.getHost() : hostOf(uri.getRawAuthority());
    if (!"https".equals(String.valueOf(uri.getScheme()).toLowerCase(Locale.ROOT)) || host == null) {
      problems.add(new FieldProblem("url", "must be an absolute HTTPS URL (https://host/...)"));
      return null;
    }
    String refusal = destinations.refusal(host);
    if (refusal == null && uri.getHost() == null) {
      problems.add(new FieldProblem("url", "has a host that is not a valid name: " + host));
      return null;
    }
    if (refusal != null) {
      problems.add(new FieldProblem("url", "must not point at an internal address: " + refusal));
      return null;
    }
    return url;
  }

  /** The host of an authority {@code [user@]host[:port]}, or null. */
  private static String hostOf(String authority) {
    if (authority == null) {
      return null;
    }
    String host = authority.substring(authority.lastIndexOf('@') + 1);
    int colon = host.lastIndexOf(':');
    if (colon > 0 && !host.endsWith("]")) {
      host = host.substring(0, colon);
    }
    return host.isBlank() ? null : host;
  }

  private static List<String> events(JsonNode node, boolean required, List<FieldProblem> problems) {
    if (node == null || node.isNull() || !node.isArray() || node.isEmpty()) {
      problems.add(
          new FieldProblem("events", "must be a non-empty array of event names " + EventNames.ALL));
      return null;
    }
    Set<String> events = new LinkedHashSet<>();
    for (JsonNode event : node) {
      if (!event.isString() || !EventNames.ALL.contains(event.asString())) {
        problems.add(
            new FieldProblem(
                "events", "unknown event " + event + "; available: " + EventNames.ALL));
      } else {
        events.add(event.asString());
      }
    }
    return List.copyOf(events);
  }

  private static String secret(JsonNode node, List<FieldProblem> problems) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isString()
        || node.asString().isEmpty()
        || node.asString().length() > MAX_SECRET_LENGTH) {
      problems.add(
          new FieldProblem(
              "secret", "must be a string of 1 to " + MAX_SECRET_LENGTH + " characters"));
      return null;
    }
    return node.asString();
  }
}
