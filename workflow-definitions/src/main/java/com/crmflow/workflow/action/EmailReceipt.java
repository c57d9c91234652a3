package com.crmflow.workflow.action;

/** What became of an email: {@link #SENT} over SMTP, or {@link #CAPTURED} (no SMTP configured). */
public record EmailReceipt(String status, String messageId) {

  public static final String SENT = "sent";
  public static final String CAPTURED = "captured";
}
