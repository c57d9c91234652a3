package com.crmflow.api.trigger;

import com.crmflow.api.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * The tenant's quota on the public trigger, taken before the body is read: every call to a tenant's
 * trigger path counts (a wrong secret too). Every answer carries {@code RateLimit-Policy} and
 * {@code RateLimit} (draft-ietf-httpapi-ratelimit-headers-11); a call over the quota gets 429 with
 * {@code Retry-After}, and nothing is stored.
 */
class TriggerQuotaInterceptor implements HandlerInterceptor {

  private final TriggerQuotas quotas;

  TriggerQuotaInterceptor(TriggerQuotas quotas) {
    this.quotas = quotas;
  }

  @Override
  public boolean preHandle(
      HttpServletRequest request, HttpServletResponse response, Object handler) {
    UUID tenant = tenantOf(request);
    if (!quotas.enabled() || tenant == null) {
      return true; // not a tenant id: the controller answers 404
    }
    TriggerQuotas.Check check = quotas.take(tenant);
    response.setHeader("RateLimit-Policy", check.policyField());
    response.setHeader("RateLimit", check.limitField());
    if (check.decision().allowed()) {
      return true;
    }
    throw new ApiException(
        HttpStatus.TOO_MANY_REQUESTS,
        "This tenant's quota of "
            + check.quota().requests()
            + " trigger calls per "
            + check.quota().windowSeconds()
            + " s is spent; nothing was stored. Send the call again after Retry-After.",
        List.of(),
        Map.of(
            "Retry-After",
            Long.toString(check.decision().retryAfterSeconds()),
            "RateLimit-Policy",
            check.policyField(),
            "RateLimit",
            check.limitField()));
  }

  private static UUID tenantOf(HttpServletRequest request) {
    if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE)
            instanceof Map<?, ?> variables
        && variables.get("tenantId") instanceof String id) {
      try {
        return UUID.fromString(id);
      } catch (IllegalArgumentException notATenant) {
        return null;
      }
    }
    return null;
  }
}
