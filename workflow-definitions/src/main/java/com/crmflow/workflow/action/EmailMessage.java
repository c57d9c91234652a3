package com.crmflow.workflow.action;

/**
 * A rendered email. {@code messageId} is derived from run and node id, so every retry of the same
 * node sends the same Message-ID and receivers can drop a repeat.
 */
public record EmailMessage(
    String messageId, String to, String subject, String textBody, String htmlBody) {

  public static String messageIdFor(String runId, String nodeId) {
    return "<" + runId + "." + nodeId + "@crmflow.local>";
  }
}
