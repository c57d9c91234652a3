package com.crmflow.workflow.action;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * The CRM side of an email node, hosted by api-server (task queue crm): it reads the contact and
 * the template before the send and books the sent (or captured) email afterwards.
 */
@ActivityInterface
public interface EmailBookActivities {

  /** The contact or template does not exist (in this tenant): not retried. */
  String NOT_FOUND = "NotFound";

  @ActivityMethod(name = "email_context")
  EmailContext context(String tenantId, String contactId, String templateId);

  /** Stores the email once per (run, node), with its status: sent, captured or unknown. */
  @ActivityMethod(name = "record_email")
  void record(String tenantId, String runId, String nodeId, EmailMessage message, String status);
}
