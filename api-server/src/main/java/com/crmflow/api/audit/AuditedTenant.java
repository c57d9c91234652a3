package com.crmflow.api.audit;

import jakarta.servlet.http.HttpServletRequest;
import java.util.UUID;

/**
 * Admin calls act on a tenant named in their path or created by the call; they record it here so
 * that the audit row can name it. Calls made with an API key need not: their tenant is the key's.
 */
public final class AuditedTenant {

  static final String ATTRIBUTE = AuditedTenant.class.getName();

  private AuditedTenant() {}

  public static void set(HttpServletRequest request, UUID tenantId) {
    request.setAttribute(ATTRIBUTE, tenantId);
  }
}
