package com.crmflow.api.audit;

import com.crmflow.api.web.Paging;
import java.util.LinkedHashMap;
import java.util.Map;
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
  Map<String, Object> securityEvents(
      @RequestParam(name = "tenant_id", required = false) UUID tenantId,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    Paging paging = Paging.of(limit, offset);
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("events", securityEvents.list(tenantId, paging.limit(), paging.offset()));
    response.put("total", securityEvents.count(tenantId));
    response.put("limit", paging.limit());
    response.put("offset", paging.offset());
    return response;
  }

  @GetMapping("/admin/v1/audit-log")
  Map<String, Object> list(
      @RequestParam(name = "tenant_id", required = false) UUID tenantId,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    Paging paging = Paging.of(limit, offset);
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("entries", auditLog.list(tenantId, paging.limit(), paging.offset()));
    response.put("total", auditLog.count(tenantId));
    response.put("limit", paging.limit());
    response.put("offset", paging.offset());
    return response;
  }
}
