package com.crmflow.api.chat;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.worker.activity.DestinationPolicy;
import com.crmflow.workflow.action.ChatActivities;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;

/**
 * chat_message over the Slack Web API's {@code chat.postMessage}: POST {@code {channel, text}} as
 * JSON with the bot token as Bearer. Slack answers 200 with {@code ok: false} and an error code for
 * most failures: rate limits (429 with Retry-After, or {@code ratelimited}) and server errors are
 * retried, honouring Retry-After; everything else (channel_not_found, invalid_auth, ...) fails the
 * node at once, as does a tenant without a connected integration.
 */
@Component("chatActivities")
class ChatActivitiesImpl implements ChatActivities {

  private static final Set<String> RETRYABLE_ERRORS =
      Set.of(
          "ratelimited", "internal_error", "fatal_error", "service_unavailable", "request_timeout");

  private final HttpClient client =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
  private final ChatIntegrationRepository integrations;
  private final TokenCipher cipher;
  private final DestinationPolicy destinations;
  private final JsonColumns json;

  ChatActivitiesImpl(
      ChatIntegrationRepository integrations,
      TokenCipher cipher,
      DestinationPolicy destinations,
      JsonColumns json) {
    this.integrations = integrations;
    this.cipher = cipher;
    this.destinations = destinations;
    this.json = json;
  }

  @Override
  public Map<String, Object> post(String tenantId, String channel, String text) {
    ChatIntegrationRepository.Stored integration =
        integrations
            .findStored(UUID.fromString(tenantId))
            .orElseThrow(
                () -> rejected("no chat integration is connected (PUT /api/v1/integrations/chat)"));
    URI uri = URI.create(integration.baseUrl() + "/chat.postMessage");
    String refusal = destinations.refusal(uri.getHost());
    if (refusal != null) {
      throw rejected("refused to call " + uri.getHost() + ": " + refusal);
    }
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("channel", channel);
    message.put("text", text);
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(15))
            .header("Content-Type", "application/json; charset=utf-8")
            .header("Authorization", "Bearer " + cipher.decrypt(integration.tokenCiphertext()))
            .POST(HttpRequest.BodyPublishers.ofString(json.write(message)))
            .build();
    HttpResponse<String> response;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw ApplicationFailure.newFailure("chat API unreachable: " + e.getMessage(), "Network");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ApplicationFailure.newFailure("interrupted", "Interrupted");
    }
    if (response.statusCode() == 429 || response.statusCode() >= 500) {
      throw retryLater(
          "chat API answered " + response.statusCode(),
          response.headers().firstValue("Retry-After").orElse(null));
    }
    Map<String, Object> answer = parse(response);
    if (Boolean.TRUE.equals(answer.get("ok"))) {
      Map<String, Object> output = new LinkedHashMap<>();
      output.put("ok", true);
      output.put("channel", answer.get("channel"));
      output.put("ts", answer.get("ts"));
      return output;
    }
    String error = String.valueOf(answer.getOrDefault("error", "unknown_error"));
    if (RETRYABLE_ERRORS.contains(error)) {
      throw retryLater(
          "chat API error " + error, response.headers().firstValue("Retry-After").orElse(null));
    }
    throw rejected("chat API refused the message: " + error);
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> parse(HttpResponse<String> response) {
    try {
      Object parsed = json.mapper().readValue(response.body(), Object.class);
      if (parsed instanceof Map<?, ?> map) {
        return (Map<String, Object>) map;
      }
    } catch (JacksonException ignored) {
      // handled below
    }
    throw rejected(
        "chat API answered "
            + response.statusCode()
            + " without a JSON object: "
            + response.body().substring(0, Math.min(200, response.body().length())));
  }

  private static ApplicationFailure retryLater(String message, String retryAfter) {
    ApplicationFailure failure = ApplicationFailure.newFailure(message, "RateLimited");
    if (retryAfter != null && retryAfter.trim().matches("\\d{1,5}")) {
      failure.setNextRetryDelay(Duration.ofSeconds(Long.parseLong(retryAfter.trim())));
    }
    return failure;
  }

  private static ApplicationFailure rejected(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, REJECTED);
  }
}
