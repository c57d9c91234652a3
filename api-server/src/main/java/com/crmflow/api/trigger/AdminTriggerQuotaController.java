package com.crmflow.api.trigger;

import com.crmflow.api.audit.AuditedTenant;
import com.crmflow.api.tenant.TenantRepository;
import com.crmflow.api.tenant.TriggerQuota;
import com.crmflow.api.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.UUID;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Admin API: a tenant's quota of public trigger calls ({@code requests} per {@code
 * window_seconds}). Guarded by the admin token. The instance that answers applies a change at once,
 * the others within {@link TriggerQuotas#REREAD_AFTER}.
 */
@RestController
@RequestMapping("/admin/v1/tenants/{tenantId}/trigger-quota")
class AdminTriggerQuotaController {

  private final TriggerQuotas quotas;
  private final TenantRepository tenants;

  AdminTriggerQuotaController(TriggerQuotas quotas, TenantRepository tenants) {
    this.quotas = quotas;
    this.tenants = tenants;
  }

  record SetQuotaRequest(
      @NotNull @Min(1) @Max(1_000_000) Integer requests,
      @NotNull @Min(1) @Max(3600) Integer windowSeconds) {}

  @GetMapping
  QuotaAnswer read(@PathVariable UUID tenantId) {
    requireTenant(tenantId);
    return answer(tenantId);
  }

  @PutMapping
  QuotaAnswer set(
      @PathVariable UUID tenantId,
      @Valid @RequestBody SetQuotaRequest body,
      HttpServletRequest request) {
    requireTenant(tenantId);
    AuditedTenant.set(request, tenantId); // before the change: its row commits with it
    if (!quotas.set(tenantId, new TriggerQuota(body.requests(), body.windowSeconds()))) {
      throw ApiException.notFound("Tenant", tenantId);
    }
    return answer(tenantId);
  }

  @DeleteMapping
  QuotaAnswer reset(@PathVariable UUID tenantId, HttpServletRequest request) {
    requireTenant(tenantId);
    AuditedTenant.set(request, tenantId);
    if (!quotas.set(tenantId, null)) {
      throw ApiException.notFound("Tenant", tenantId);
    }
    return answer(tenantId);
  }

  private QuotaAnswer answer(UUID tenantId) {
    return quotas
        .ownQuota(tenantId)
        .map(own -> new QuotaAnswer(new QuotaInForce(own, "tenant")))
        .orElseGet(() -> new QuotaAnswer(new QuotaInForce(quotas.defaultQuota(), "default")));
  }

  private void requireTenant(UUID tenantId) {
    if (!tenants.exists(tenantId)) {
      throw ApiException.notFound("Tenant", tenantId);
    }
  }

  /**
   * The quota in force.
   *
   * @param source {@code tenant} (its own) or {@code default} (crm.trigger.quota)
   */
  record QuotaInForce(int requests, int windowSeconds, String source) {
    QuotaInForce(TriggerQuota quota, String source) {
      this(quota.requests(), quota.windowSeconds(), source);
    }
  }

  /** {@code {trigger_quota}}. */
  record QuotaAnswer(QuotaInForce triggerQuota) {}
}
