package com.crmflow.api.audit;

import com.crmflow.api.access.Caller;
import com.crmflow.api.web.RequestPaths;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * The audit log's view of each call, once its answer is final. It runs first in the pipeline, so it
 * also sees the calls the key or admin-token check refused:
 *
 * <ul>
 *   <li>a refused call (401, 403) is kept as a security event: who (key and tenant where known),
 *       what, the reason the check gave, and from where ({@link SecurityEventLog} caps the rows a
 *       source can add);
 *   <li>a mutating call that succeeded gets its status on the row its change committed with ({@link
 *       AuditedTransactions}); one that changed nothing through a transaction gets its row now.
 * </ul>
 */
@Component
public class AuditInterceptor implements HandlerInterceptor {

  private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");

  private final AuditLogRepository auditLog;
  private final SecurityEventLog securityEvents;

  AuditInterceptor(AuditLogRepository auditLog, SecurityEventLog securityEvents) {
    this.auditLog = auditLog;
    this.securityEvents = securityEvents;
  }

  @Override
  public void afterCompletion(
      HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
    int status = response.getStatus();
    Caller caller = Caller.of(request);
    if (status == 401 || status == 403) {
      keepSecurityEvent(request, caller, status);
      return;
    }
    boolean succeeded = ex == null && status >= 200 && status < 300;
    Long row = (Long) request.getAttribute(AuditedTransactions.ROW);
    if (row != null) {
      // the row holds the handler's declared status; a call answered otherwise corrects it
      Integer answered = succeeded ? status : null;
      if (!Objects.equals(request.getAttribute(AuditedTransactions.ROW_STATUS), answered)) {
        auditLog.setStatus(row, answered);
      }
      return;
    }
    if (!succeeded || !MUTATING.contains(request.getMethod())) {
      return;
    }
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

  private void keepSecurityEvent(HttpServletRequest request, Caller caller, int status) {
    String reason = (String) request.getAttribute(SecurityEvents.REASON);
    if (reason == null) {
      reason = status == 401 ? "not authenticated" : "not allowed";
    }
    String path = RequestPaths.of(request);
    String actor =
        path.startsWith("/admin/")
            ? "admin"
            : path.startsWith("/api/webhooks/automation/") ? "trigger" : "api_key";
    securityEvents.refused(
        caller == null ? null : caller.tenantId(),
        caller == null ? null : caller.apiKeyId(),
        actor,
        request.getMethod(),
        request.getRequestURI(),
        status,
        reason,
        request.getRemoteAddr());
  }
}
