package com.crmflow.api.trigger;

import com.crmflow.api.access.Caller;
import com.crmflow.api.event.EventCause;
import com.crmflow.api.event.EventOutbox;
import com.crmflow.shared.outbound.CauseHeader;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Writes through the authenticated API made by one of the tenant's runs: a request whose {@code
 * CRM-Cause} token (which the run's http_request sends with the key it stores) names a run of the
 * key's tenant emits its events with that run's cause, as the run's crm_update would. So an
 * automation whose http_request writes back through the API is held by the loop rules (cycle,
 * depth, budget, breaker) as crm_update is. Each transaction of the request decides, just before it
 * commits, which automations its events start; those it does not start are named in the answer's
 * {@value #NOT_STARTED} header, which the calling http_request's output shows. A token that names
 * no run of the key's tenant (another tenant's, a forged one, an old one) changes nothing.
 *
 * <p>Runs after the key and scope check (it needs the caller's tenant) and before the handler.
 */
@Component
class ApiWriteCauses implements HandlerInterceptor, WebMvcConfigurer {

  /**
   * The answer's header that names each automation the request's events do not start, as a
   * structured field list (RFC 8941): {@code "<automation id>";reason=<cycle|depth|budget|
   * breaker>;event="<event>"}.
   */
  static final String NOT_STARTED = "CRM-Automations-Not-Started";

  private static final String SCOPE = ApiWriteCauses.class.getName() + ".scope";

  private final CauseHeader causeHeader;
  private final RunCauses causes;
  private final EventOutbox outbox;
  private final CrmEventTriggers triggers;

  ApiWriteCauses(
      CauseHeader causeHeader, RunCauses causes, EventOutbox outbox, CrmEventTriggers triggers) {
    this.causeHeader = causeHeader;
    this.causes = causes;
    this.outbox = outbox;
    this.triggers = triggers;
  }

  @Override
  public void addInterceptors(InterceptorRegistry registry) {
    registry
        .addInterceptor(this)
        .addPathPatterns("/api/**")
        .excludePathPatterns("/api/webhooks/automation/**")
        // after the key and scope check, which every other interceptor comes before
        .order(Ordered.LOWEST_PRECEDENCE);
  }

  @Override
  public boolean preHandle(
      HttpServletRequest request, HttpServletResponse response, Object handler) {
    String header = request.getHeader(CauseHeader.NAME);
    Caller caller = Caller.of(request);
    if (header == null || caller == null) {
      return true;
    }
    Optional<EventCause> cause =
        causeHeader
            .read(caller.tenantId(), header)
            .flatMap(run -> causes.of(caller.tenantId(), run.runId(), run.nodeId()));
    if (cause.isEmpty()) {
      return true;
    }
    EventCause byRun = cause.get();
    request.setAttribute(
        SCOPE,
        outbox.causeOnThisThread(
            byRun,
            events -> {
              triggers.lockRoot(caller.tenantId(), byRun);
              List<Map<String, Object>> notStarted = triggers.decide(events);
              if (!notStarted.isEmpty() && !response.isCommitted()) {
                response.addHeader(NOT_STARTED, listed(notStarted));
              }
            }));
    return true;
  }

  @Override
  public void afterCompletion(
      HttpServletRequest request, HttpServletResponse response, Object handler, Exception failed) {
    if (request.getAttribute(SCOPE) instanceof EventOutbox.CauseScope scope) {
      scope.close();
    }
  }

  /** The refused starts as the header lists them. */
  static String listed(List<Map<String, Object>> notStarted) {
    return notStarted.stream()
        .map(
            refused ->
                "\""
                    + refused.get("automation_id")
                    + "\";reason="
                    + refused.get("reason")
                    + ";event=\""
                    + refused.get("event")
                    + "\"")
        .collect(Collectors.joining(", "));
  }
}
