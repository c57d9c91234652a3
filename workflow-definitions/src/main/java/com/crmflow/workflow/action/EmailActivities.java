package com.crmflow.workflow.action;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Sends email over SMTP. Hosted by the workflow worker (task queue integrations). */
@ActivityInterface
public interface EmailActivities {

  /** A recipient address that cannot be valid: not retried. */
  String INVALID_ADDRESS = "InvalidAddress";

  @ActivityMethod(name = "email")
  EmailReceipt send(EmailMessage message);
}
