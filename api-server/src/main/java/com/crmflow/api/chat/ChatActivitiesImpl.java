package com.crmflow.api.chat;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.nodeeffect.NodeEffectRepository;
import com.crmflow.shared.outbound.ForbiddenDestinationException;
import com.crmflow.shared.outbound.HandOver;
import com.crmflow.shared.outbound.HandOverLedger;
import com.crmflow.shared.outbound.NetworkErrors;
import com.crmflow.shared.outbound.OutboundHttpClient;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.shared.text.NulCharacters;
import com.crmflow.workflow.action.ChatActivities;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.net.URI;
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

  private static final int MAX_ANSWER_BYTES = 256 * 1024;

  private final OutboundHttpClient http;
  private final ChatIntegrationRepository integrations;
  private final SecretCipher cipher;
  private final JsonColumns json;
  private final NodeEffectRepository effects;
  private final HandOverLedger handOvers;

  ChatActivitiesImpl(
      OutboundHttpClient http,
      ChatIntegrationRepository integrations,
      SecretCipher cipher,
      JsonColumns json,
      NodeEffectRepository effects,
      HandOverLedger handOvers) {
    this.http = http;
    this.integrations = integrations;
    this.cipher = cipher;
    this.json = json;
    this.effects = effects;
    this.handOvers = handOvers;
  }

  /**
   * Posts once per (run, node): a node run again (its activity retried after a post whose answer
   * was lost, or its run resumed after a restart) answers with the first post's output. A post
   * whose outcome is unknown (the connection lost after the message went out, or an attempt that
   * stopped then) is not made again: the node fails (see {@link HandOver}).
   */
  @Override
  public Map<String, Object> post(
      String tenantId, String channel, String text, String runId, String nodeId) {
    if (runId == null || nodeId == null) {
      return postMessage(tenantId, channel, text, null);
    }
    return effects.once(
        UUID.fromString(runId),
        nodeId,
        UUID.fromString(tenantId),
        () -> postMessage(tenantId, channel, text, "chat " + runId + " " + nodeId));
  }

  /**
   * @param effectKey the node in its run, for the hand-over ledger (null: tasks of runs started
   *     before runs and nodes were passed)
   */
  private Map<String, Object> postMessage(
      String tenantId, String channel, String text, String effectKey) {
    ChatIntegrationRepository.Stored integration =
        integrations
            .findStored(UUID.fromString(tenantId))
            .orElseThrow(
                () -> rejected("no chat integration is connected (PUT /api/v1/integrations/chat)"));
    if (!ChatIntegrationController.validBaseUrl(integration.baseUrl())) {
      // checked where it is used too: a stored row that breaks the rule would not take the
      // method's name into its path
      throw rejected(
          "the chat integration's base_url is not a plain http(s) URL (it holds user info, a"
              + " query, a fragment or a dot segment): connect the integration again"
              + " (PUT /api/v1/integrations/chat)");
    }
    URI uri = URI.create(integration.baseUrl() + "/chat.postMessage");
    String token;
    try {
      token = cipher.decrypt(integration.tokenCiphertext());
    } catch (IllegalStateException unreadable) {
      // retrying does not give this process the key
      throw rejected(
          "the chat integration's token cannot be read ("
              + unreadable.getMessage()
              + "): connect the integration again (PUT /api/v1/integrations/chat)");
    }
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("channel", channel);
    message.put("text", text);
    // a post that went through is noted in node_effect (above), not as delivered in the ledger
    HandOver handOver = HandOver.begin("the chat message", OUTCOME_UNKNOWN, handOvers, effectKey);
    handOver.start();
    OutboundHttpClient.Response response;
    try {
      response =
          http.send(
              "POST",
              uri,
              Map.of(
                  "Content-Type",
                  "application/json; charset=utf-8",
                  "Authorization",
                  "Bearer " + token),
              json.write(message).getBytes(StandardCharsets.UTF_8),
              Duration.ofSeconds(15),
              MAX_ANSWER_BYTES);
    } catch (ForbiddenDestinationException e) {
      throw rejected("refused to call " + uri.getHost() + ": " + e.getMessage());
    } catch (IOException e) {
      if (!HandOver.neverSent(e)) {
        throw handOver.outcomeUnknown(
            "the connection to the chat API failed after the message went out: "
                + NetworkErrors.describe(e, uri.getHost()));
      }
      handOver.notDelivered();
      throw ApplicationFailure.newFailure(
          "chat API unreachable: " + NetworkErrors.describe(e, uri.getHost()), "Network");
    }
    // an answer says what happened: a rate limit or a server error posted nothing
    if (response.status() == 429 || response.status() >= 500) {
      handOver.notDelivered();
      throw retryLater(
          "chat API answered " + response.status(), response.header("Retry-After").orElse(null));
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
      handOver.notDelivered();
      throw retryLater("chat API error " + error, response.header("Retry-After").orElse(null));
    }
    throw rejected("chat API refused the message: " + error);
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> parse(OutboundHttpClient.Response response) {
    String body = new String(response.body(), StandardCharsets.UTF_8);
    try {
      Object parsed = NulCharacters.replacedIn(json.mapper().readValue(body, Object.class), body);
      if (parsed instanceof Map<?, ?> map) {
        return (Map<String, Object>) map;
      }
    } catch (JacksonException ignored) {
      // handled below
    }
    throw rejected(
        "chat API answered "
            + response.status()
            + " without a JSON object: "
            + body.substring(0, Math.min(200, body.length())));
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
