package com.crmflow.api.audit;

import com.crmflow.api.access.Caller;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Arrays;
import java.util.Set;
import java.util.UUID;
import org.springframework.http.HttpEntity;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;

/**
 * The audit row of a change commits with the change: when a mutating call's handler begins a
 * transaction, the row is written into it just before it commits, so a change without its row
 * cannot commit (a failed insert rolls the change back and the call fails). The first transaction
 * that commits carries the row; the {@link AuditInterceptor} fills in the call's status once the
 * answer is final, and writes the row of a call that changed nothing through a transaction.
 *
 * <p>Only transactions of the handler count: the call is authenticated by then (its {@link Caller}
 * is known, or an admin call has named its tenant), so the key's own bookkeeping before it does not
 * take the row. Work the call hands to other threads (a workflow's activities) is its own.
 */
@Component
class AuditedTransactions implements TransactionExecutionListener {

  static final String ROW = AuditedTransactions.class.getName() + ".row";

  /** The status the row holds: the handler's declared one, or null. */
  static final String ROW_STATUS = AuditedTransactions.class.getName() + ".rowStatus";

  private static final String PENDING = AuditedTransactions.class.getName() + ".pending";

  private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");

  private final AuditLogRepository auditLog;

  AuditedTransactions(AuditLogRepository auditLog) {
    this.auditLog = auditLog;
  }

  @Override
  public void afterBegin(TransactionExecution transaction, Throwable beginFailure) {
    if (beginFailure != null
        || !transaction.isNewTransaction()
        || transaction.isReadOnly()
        || !TransactionSynchronizationManager.isSynchronizationActive()) {
      return;
    }
    HttpServletRequest request = currentRequest();
    if (request == null
        || !MUTATING.contains(request.getMethod())
        || request.getAttribute(ROW) != null
        || request.getAttribute(PENDING) != null) {
      return;
    }
    if (Caller.of(request) == null && request.getAttribute(AuditedTenant.ATTRIBUTE) == null) {
      return; // not in the handler yet, or an admin call that has not named its tenant
    }
    request.setAttribute(PENDING, Boolean.TRUE);
    TransactionSynchronizationManager.registerSynchronization(new RowWithTheChange(request));
  }

  /** Writes the row before the commit; the request remembers it once the commit went through. */
  private final class RowWithTheChange implements TransactionSynchronization {

    private final HttpServletRequest request;
    private Long row;
    private Integer rowStatus;

    RowWithTheChange(HttpServletRequest request) {
      this.request = request;
    }

    @Override
    public void beforeCommit(boolean readOnly) {
      Caller caller = Caller.of(request);
      UUID tenant =
          caller != null ? caller.tenantId() : (UUID) request.getAttribute(AuditedTenant.ATTRIBUTE);
      if (tenant == null) {
        return; // an admin call that named no tenant: the interceptor writes its row
      }
      // the status the handler declares, so that a call answered with it needs no second write
      rowStatus = declaredStatus(request);
      row =
          auditLog.insert(
              tenant,
              caller == null ? null : caller.apiKeyId(),
              caller == null ? "admin" : "api_key",
              request.getMethod(),
              request.getRequestURI(),
              rowStatus);
    }

    @Override
    public void afterCompletion(int status) {
      request.removeAttribute(PENDING);
      if (status == STATUS_COMMITTED && row != null) {
        request.setAttribute(ROW, row);
        request.setAttribute(ROW_STATUS, rowStatus);
      }
    }
  }

  /**
   * The status the handler answers with when it returns normally: its {@code @ResponseStatus}, or
   * 200. Null when the handler sets it itself (a {@code ResponseEntity}, or the servlet response as
   * a parameter).
   */
  private static Integer declaredStatus(HttpServletRequest request) {
    if (!(request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE)
        instanceof HandlerMethod handler)) {
      return null;
    }
    if (HttpEntity.class.isAssignableFrom(handler.getReturnType().getParameterType())
        || Arrays.stream(handler.getMethodParameters())
            .anyMatch(p -> HttpServletResponse.class.isAssignableFrom(p.getParameterType()))) {
      return null;
    }
    ResponseStatus declared = handler.getMethodAnnotation(ResponseStatus.class);
    return declared == null ? 200 : declared.code().value();
  }

  private static HttpServletRequest currentRequest() {
    RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
    return attributes instanceof ServletRequestAttributes servlet ? servlet.getRequest() : null;
  }
}
