package com.crmflow.api.chat;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.shared.secret.SecretCipher;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Connects a tenant's chat integration for chat_message nodes: PUT {@code {provider: "slack",
 * bot_token, base_url?}}. The token is stored encrypted and never returned; responses show a hint
 * (its last four characters).
 */
@RestController
@RequestMapping("/api/v1/integrations/chat")
class ChatIntegrationController {

  private static final Set<String> FIELDS = Set.of("provider", "bot_token", "base_url");

  private final ChatIntegrationRepository integrations;
  private final SecretCipher cipher;
  private final String defaultBaseUrl;

  ChatIntegrationController(
      ChatIntegrationRepository integrations, SecretCipher cipher, CrmProperties properties) {
    this.integrations = integrations;
    this.cipher = cipher;
    this.defaultBaseUrl = properties.chat().slackBaseUrl();
  }

  @PutMapping
  @RequiresScope(Scope.INTEGRATIONS_WRITE)
  ChatIntegrationAnswer connect(
      Caller caller,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = ChatIntegrationInput.class)))
          @RequestBody
          JsonNode body) {
    JsonBodies.requireObject(body);
    List<FieldProblem> problems = new ArrayList<>();
    body.propertyNames()
        .forEach(
            name -> {
              if (!FIELDS.contains(name)) {
                problems.add(new FieldProblem(name, "is not a field of a chat integration"));
              }
            });
    String provider = text(body, "provider", "slack");
    if (!"slack".equals(provider)) {
      problems.add(new FieldProblem("provider", "must be slack"));
    }
    String token = text(body, "bot_token", null);
    if (token == null || token.isBlank()) {
      problems.add(new FieldProblem("bot_token", "is required"));
    } else if (token.length() > 500 || token.chars().anyMatch(Character::isWhitespace)) {
      problems.add(new FieldProblem("bot_token", "must be a token without spaces, ≤ 500 chars"));
    }
    String baseUrl = text(body, "base_url", defaultBaseUrl);
    if (!validBaseUrl(baseUrl)) {
      problems.add(
          new FieldProblem(
              "base_url",
              "must be an absolute http(s) URL without user info, query, fragment or '.' and"
                  + " '..' segments (the API's methods are appended to its path)"));
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    String hint = "…" + token.substring(Math.max(0, token.length() - 4));
    return new ChatIntegrationAnswer(
        integrations.upsert(
            caller.tenantId(), provider, cipher.encrypt(token), hint, stripSlash(baseUrl)));
  }

  @GetMapping
  @RequiresScope(Scope.INTEGRATIONS_READ)
  ChatIntegrationAnswer get(Caller caller) {
    return new ChatIntegrationAnswer(
        integrations
            .find(caller.tenantId())
            .orElseThrow(() -> ApiException.notFound("Chat integration", "of this tenant")));
  }

  @DeleteMapping
  @RequiresScope(Scope.INTEGRATIONS_WRITE)
  @ResponseStatus(HttpStatus.NO_CONTENT)
  void disconnect(Caller caller) {
    if (!integrations.delete(caller.tenantId())) {
      throw ApiException.notFound("Chat integration", "of this tenant");
    }
  }

  private static String text(JsonNode body, String field, String otherwise) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      return otherwise;
    }
    if (!value.isString()) {
      throw ApiException.badRequest(field, "must be a string");
    }
    return value.stringValue();
  }

  /**
   * An absolute http(s) URL to which {@code /chat.postMessage} is appended as the last segment of
   * its path: one with a query or a fragment would take the method's name into them, user info or a
   * dot segment would make the call go elsewhere than it reads.
   */
  static boolean validBaseUrl(String url) {
    try {
      URI uri = URI.create(url);
      String path = uri.getRawPath() == null ? "" : uri.getRawPath();
      return ("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
          && uri.getHost() != null
          && uri.getRawUserInfo() == null
          && uri.getRawQuery() == null
          && uri.getRawFragment() == null
          && !url.contains("?")
          && !url.contains("#")
          && Arrays.stream(path.split("/"))
              .map(segment -> segment.replaceAll("(?i)%2e", "."))
              .noneMatch(segment -> segment.equals(".") || segment.equals(".."))
          && url.length() <= 500;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  /** {@code {integration}}. */
  record ChatIntegrationAnswer(ChatIntegration integration) {}

  /** The body of PUT /integrations/chat. */
  record ChatIntegrationInput(
      @Schema(
              requiredMode = Schema.RequiredMode.REQUIRED,
              allowableValues = {"slack"})
          String provider,
      @Schema(requiredMode = Schema.RequiredMode.REQUIRED, writeOnly = true) String botToken,
      @Schema(
              format = "uri",
              description = "the provider's API base URL (for a self-hosted or test server)")
          String baseUrl) {}
}
