package com.crmflow.api.outboundemail;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.auth.RequiresScope;
import com.crmflow.api.auth.Scope;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
import com.crmflow.workflow.action.EmailReceipt;
import java.util.List;
import java.util.UUID;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The emails automations sent, or captured when no SMTP server is configured: {@code
 * {outbound_emails, total, limit, offset}}, newest first, filter by run_id and status.
 */
@RestController
@RequestMapping("/api/v1/outbound-emails")
class OutboundEmailController {

  private static final List<String> STATUSES =
      List.of(EmailReceipt.SENT, EmailReceipt.CAPTURED, EmailReceipt.UNKNOWN);

  private final OutboundEmailRepository emails;

  OutboundEmailController(OutboundEmailRepository emails) {
    this.emails = emails;
  }

  @GetMapping
  @RequiresScope(Scope.AUTOMATION_RUNS_READ)
  OutboundEmailPage list(
      Caller caller,
      @RequestParam(name = "run_id", required = false) UUID runId,
      @RequestParam(required = false) String status,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    if (status != null && !STATUSES.contains(status)) {
      throw ApiException.badRequest("status", "must be one of " + STATUSES);
    }
    Paging paging = Paging.of(limit, offset);
    return new OutboundEmailPage(
        emails.list(caller.tenantId(), runId, status, paging.limit(), paging.offset()),
        emails.count(caller.tenantId(), runId, status),
        paging.limit(),
        paging.offset());
  }

  /** {@code {outbound_emails, total, limit, offset}}. */
  record OutboundEmailPage(List<OutboundEmail> outboundEmails, long total, int limit, int offset) {}
}
