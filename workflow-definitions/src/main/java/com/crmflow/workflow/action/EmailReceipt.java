package com.crmflow.workflow.action;

/**
 * What became of an email: {@link #SENT} over SMTP, or {@link #CAPTURED} (no SMTP configured). An
 * email whose hand-over had no known outcome is booked as {@link #UNKNOWN} (never a receipt's).
 */
public record EmailReceipt(String status, String messageId) {

  public static final String SENT = "sent";
  public static final String CAPTURED = "captured";
  public static final String UNKNOWN = "unknown";
}
