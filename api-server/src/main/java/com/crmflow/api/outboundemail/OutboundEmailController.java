package com.crmflow.api.outboundemail;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
import com.crmflow.workflow.action.EmailReceipt;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.UUID;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The emails automations sent, or captured when no SMTP server is configured: {@code
 * {outbound_emails, total, limit, offset}}, newest first, filter by run_id and status.
 *
 * <p>An email's address, subject and bodies are the contact's data: a reader of runs without
 * contacts:read sees each email's ids, status and time, not what it said or to whom, and {@code
 * withheld} names the scope that shows the rest (as a run's node log does).
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
    List<OutboundEmail> page =
        emails.list(caller.tenantId(), runId, status, paging.limit(), paging.offset());
    boolean readsContacts = caller.has(Scope.CONTACTS_READ);
    return new OutboundEmailPage(
        readsContacts ? page : page.stream().map(OutboundEmail::withoutContent).toList(),
        emails.count(caller.tenantId(), runId, status),
        paging.limit(),
        paging.offset(),
        readsContacts ? null : List.of(Scope.CONTACTS_READ.value()));
  }

  /**
   * {@code {outbound_emails, total, limit, offset}}, and {@code withheld} when the caller's key
   * lacks the scopes that show the emails' addresses and content.
   */
  record OutboundEmailPage(
      List<OutboundEmail> outboundEmails,
      long total,
      int limit,
      int offset,
      @JsonInclude(JsonInclude.Include.NON_NULL)
          @Schema(
              description =
                  "The scopes this key lacks to see the emails' addresses, subjects and bodies"
                      + " (absent when it holds them)")
          List<String> withheld) {}
}
