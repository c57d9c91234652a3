package com.crmflow.api.audit;

import com.crmflow.api.web.Paging;
import java.util.List;
import java.util.UUID;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Admin API: the audit log and the security events, newest first, optionally for one tenant. */
@RestController
class AdminAuditController {

  private final AuditLogRepository auditLog;
  private final SecurityEventRepository securityEvents;

  AdminAuditController(AuditLogRepository auditLog, SecurityEventRepository securityEvents) {
    this.auditLog = auditLog;
    this.securityEvents = securityEvents;
  }

  /** The refused calls (401, 403), newest first, optionally for one tenant. */
  @GetMapping("/admin/v1/security-events")
  SecurityEventPage securityEvents(
      @RequestParam(name = "tenant_id", required = false) UUID tenantId,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    Paging paging = Paging.of(limit, offset);
    return new SecurityEventPage(
        securityEvents.list(tenantId, paging.limit(), paging.offset()),
        securityEvents.count(tenantId),
        paging.limit(),
        paging.offset());
  }

  @GetMapping("/admin/v1/audit-log")
  AuditLogPage list(
      @RequestParam(name = "tenant_id", required = false) UUID tenantId,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    Paging paging = Paging.of(limit, offset);
    return new AuditLogPage(
        auditLog.list(tenantId, paging.limit(), paging.offset()),
        auditLog.count(tenantId),
        paging.limit(),
        paging.offset());
  }

  /** {@code {events, total, limit, offset}}. */
  record SecurityEventPage(
      List<SecurityEventRepository.SecurityEvent> events, long total, int limit, int offset) {}

  /** {@code {entries, total, limit, offset}}. */
  record AuditLogPage(List<AuditEntry> entries, long total, int limit, int offset) {}
}
