package com.crmflow.api.trigger;

import com.crmflow.api.run.AutomationRun;
import com.crmflow.api.web.ApiException;
import com.crmflow.shared.outbound.CauseHeader;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/webhooks/automation/:tenantId/:nodeId}: the public trigger, answered {@code
 * {received: true, runId}} once the run is stored. The rules are {@link TriggerService}'s; its
 * answers are tested with the runs they start, in {@code run/AutomationRunApiTest}.
 */
@RestController
class TriggerController {

  private final TriggerService triggers;

  TriggerController(TriggerService triggers) {
    this.triggers = triggers;
  }

  @PostMapping(
      path = "/api/webhooks/automation/{tenantId}/{nodeId}",
      consumes = MediaType.APPLICATION_JSON_VALUE)
  TriggerAccepted trigger(
      @PathVariable String tenantId,
      @PathVariable String nodeId,
      @RequestHeader(name = "X-Webhook-Secret", required = false) String secret,
      @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
      @io.swagger.v3.oas.annotations.Parameter(
              description =
                  "Sent by the service's own http_request nodes and webhook deliveries: a token"
                      + " of the run the call comes from, which only this deployment reads. A"
                      + " token of one of the tenant's runs makes the call part of that run's"
                      + " chain of causes, so the loop rules of crm_event_trigger apply; a call"
                      + " they refuse starts no run and is answered with runId null and"
                      + " notStarted {reason, message}. Any other value is ignored.")
          @RequestHeader(name = CauseHeader.NAME, required = false)
          String cause,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              description =
                  "Any JSON object: the run's trigger payload ({{trigger.*}} in the flow).",
              content =
                  @Content(
                      mediaType = "application/json",
                      schema =
                          @Schema(
                              type = "object",
                              additionalProperties = Schema.AdditionalPropertiesValue.TRUE)))
          @RequestBody(required = false)
          String body) {
    try {
      AutomationRun run =
          triggers.fire(
              new TriggerService.Call(
                  parseTenant(tenantId), nodeId, secret, idempotencyKey, body, cause));
      return new TriggerAccepted(true, run.id(), null);
    } catch (TriggerService.NotStarted refused) {
      return new TriggerAccepted(true, null, refused.reason());
    }
  }

  /**
   * An id that is no UUID in its canonical form (36 characters) names no tenant: 404, as an unknown
   * tenant gets. {@link UUID#fromString} also takes shortened forms; the trigger quota counts calls
   * by the canonical id, so any other spelling of a tenant is no tenant here either.
   */
  static UUID parseTenant(String tenantId) {
    UUID id = canonicalUuid(tenantId);
    if (id == null) {
      throw ApiException.notFound("Tenant", tenantId);
    }
    return id;
  }

  /** The UUID {@code text} spells in its canonical form, or null for any other text. */
  static UUID canonicalUuid(String text) {
    try {
      UUID id = UUID.fromString(text);
      return id.toString().equalsIgnoreCase(text) ? id : null;
    } catch (IllegalArgumentException notAUuid) {
      return null;
    }
  }

  /**
   * {@code {received, runId}}, as the spec names them (camelCase here); for a call whose {@code
   * CRM-Cause} the loop rules refuse ({@code reason} cycle, depth or budget), or whose record the
   * flow's re-enrollment rule holds back ({@code reason} reenroll), {@code runId} is null and
   * {@code notStarted} says why.
   */
  record TriggerAccepted(
      boolean received,
      @JsonProperty("runId") UUID runId,
      @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("notStarted")
          Map<String, String> notStarted) {}
}
