package com.crmflow.api.trigger;

import com.crmflow.api.run.AutomationRun;
import com.crmflow.api.web.ApiException;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
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
    AutomationRun run =
        triggers.fire(
            new TriggerService.Call(parseTenant(tenantId), nodeId, secret, idempotencyKey, body));
    return new TriggerAccepted(true, run.id());
  }

  /** An id that is no UUID names no tenant: 404, as an unknown tenant gets. */
  private static UUID parseTenant(String tenantId) {
    try {
      return UUID.fromString(tenantId);
    } catch (IllegalArgumentException e) {
      throw ApiException.notFound("Tenant", tenantId);
    }
  }

  /** {@code {received, runId}}, as the spec names them (camelCase here). */
  record TriggerAccepted(boolean received, @JsonProperty("runId") UUID runId) {}
}
