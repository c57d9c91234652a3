package com.crmflow.api.audit;

import com.crmflow.api.auth.Caller;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Writes one audit row for every mutating call that succeeded (2xx). Rejected calls (401, 403, any
 * 4xx or 5xx) write none. Runs after the handler, when the final status is known.
 */
@Component
public class AuditInterceptor implements HandlerInterceptor {

  private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");

  private final AuditLogRepository auditLog;

  AuditInterceptor(AuditLogRepository auditLog) {
    this.auditLog = auditLog;
  }

  @Override
  public void afterCompletion(
      HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
    int status = response.getStatus();
    if (ex != null || status < 200 || status >= 300 || !MUTATING.contains(request.getMethod())) {
      return;
    }
    Caller caller = Caller.of(request);
    if (caller != null) {
      auditLog.insert(
          caller.tenantId(),
          caller.apiKeyId(),
          "api_key",
          request.getMethod(),
          request.getRequestURI(),
          status);
      return;
    }
    UUID adminTenant = (UUID) request.getAttribute(AuditedTenant.ATTRIBUTE);
    if (adminTenant != null) {
      auditLog.insert(
          adminTenant, null, "admin", request.getMethod(), request.getRequestURI(), status);
    }
  }
}
