package com.crmflow.workflow.action;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Sends email over SMTP. Hosted by the workflow worker (task queue integrations). */
@ActivityInterface
public interface EmailActivities {

  /** A recipient address that cannot be valid: not retried. */
  String INVALID_ADDRESS = "InvalidAddress";

  /**
   * The message may have reached the SMTP server, but no answer said so: not retried, so that it
   * can never arrive twice. Retrying the run from the node sends it again, on purpose.
   */
  String OUTCOME_UNKNOWN = "EmailOutcomeUnknown";

  @ActivityMethod(name = "email")
  EmailReceipt send(EmailMessage message);
}
