package com.crmflow.api.trigger;

import com.crmflow.api.audit.SecurityEvents;
import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.run.RunAdmission;
import com.crmflow.api.run.RunBeginnings;
import com.crmflow.api.web.ApiException;
import com.crmflow.workflow.history.HistoryPayloads;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * The public trigger's refusals, each with the status and detail the spec gives it: what {@link
 * TriggerService} answers when a call names no webhook trigger, brings the wrong secret, targets a
 * flow that cannot fire, or cannot be admitted or stored.
 */
@Component
class TriggerRefusals {

  private final CanvasRepository canvases;

  TriggerRefusals(CanvasRepository canvases) {
    this.canvases = canvases;
  }

  /**
   * The answer for an id that is no trigger of the tenant: 422 when it names another node of one of
   * its flows (the spec's "node is not a webhook trigger"), 404 when it names nothing the tenant
   * has.
   */
  ApiException notATrigger(UUID tenant, String nodeId) {
    return canvases
        .nodeTypeOf(tenant, nodeId)
        .map(type -> notAWebhookTrigger(nodeId, type))
        .orElseGet(() -> ApiException.notFound("Trigger node", nodeId));
  }

  static ApiException notAWebhookTrigger(String nodeId, String type) {
    return ApiException.unprocessable(
        "Node " + nodeId + " is a " + type + ", not a webhook_trigger.", List.of());
  }

  static ApiException inASequence(String nodeId) {
    return ApiException.unprocessable(
        "Node "
            + nodeId
            + " belongs to a sequence, not an automation: a sequence's contacts are enrolled"
            + " (POST /api/v1/sequences/enroll), its webhook_trigger does not fire.",
        List.of());
  }

  /** 401, recorded as a security event: the header is missing or is not the trigger's secret. */
  static ApiException wrongSecret(String secret) {
    SecurityEvents.refused(
        secret == null ? "no X-Webhook-Secret header" : "a wrong X-Webhook-Secret");
    return new ApiException(
        HttpStatus.UNAUTHORIZED,
        "X-Webhook-Secret is missing or does not match this trigger's secret.",
        List.of(),
        Map.of());
  }

  static ApiException notActive(String status) {
    return ApiException.unprocessable("The automation is " + status + ", not active.", List.of());
  }

  /** 503: this process has as many runs due as it can keep on time; nothing was stored. */
  static ApiException overloaded(RunAdmission.Decision refused) {
    return new ApiException(
        HttpStatus.SERVICE_UNAVAILABLE,
        overloadedDetail(refused.reason()),
        List.of(),
        Map.of("Retry-After", Long.toString(refused.retryAfterSeconds())));
  }

  /** The detail of the admission's 503, by its reason ({@code due} or {@code pace}). */
  static String overloadedDetail(String reason) {
    return "The service is at capacity for this tenant's triggers"
        + ("pace".equals(reason)
            ? " (calls come faster than its runs end)"
            : " (its share of the runs this process keeps on time is taken)")
        + "; nothing was stored. Send the call again after Retry-After.";
  }

  /**
   * 413: a run's workflow input carries the payload and the pinned canvas; over what Temporal
   * takes, the run could never start, so the call is refused instead of accepted and failed.
   */
  static ApiException tooLargeToStart(RunBeginnings.TooLarge tooLarge) {
    return new ApiException(
        HttpStatus.CONTENT_TOO_LARGE,
        "This payload ("
            + (tooLarge.bytes() - tooLarge.canvasBytes())
            + " bytes of JSON) and the automation's canvas ("
            + tooLarge.canvasBytes()
            + " bytes) together are over the "
            + HistoryPayloads.LIMIT_BYTES
            + " bytes a run's workflow input may carry through Temporal. Send a smaller"
            + " payload.",
        List.of(),
        Map.of());
  }
}
