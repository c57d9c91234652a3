package com.crmflow.api.audit;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Why a call was refused (401, 403), told by the check that refused it, for the security event the
 * {@link AuditInterceptor} keeps of it. The answer itself says less: a 401 does not tell a missing
 * key from a revoked one.
 */
public final class SecurityEvents {

  static final String REASON = SecurityEvents.class.getName() + ".reason";

  private SecurityEvents() {}

  public static void refused(HttpServletRequest request, String reason) {
    request.setAttribute(REASON, reason);
  }

  /** As {@link #refused(HttpServletRequest, String)}, for the request this thread serves. */
  public static void refused(String reason) {
    if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes servlet) {
      refused(servlet.getRequest(), reason);
    }
  }
}
