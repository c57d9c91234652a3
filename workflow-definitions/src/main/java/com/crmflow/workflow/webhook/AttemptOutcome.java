package com.crmflow.workflow.webhook;

/**
 * What one delivery attempt came to: {@link #DELIVERED} (a 2xx), {@link #FAILED} (anything else:
 * other statuses, redirects, timeouts, refused connections), or {@link #STOPPED} (the subscription
 * is disabled or gone: nothing was sent).
 */
public record AttemptOutcome(String result, Integer statusCode, String error) {

  public static final String DELIVERED = "delivered";
  public static final String FAILED = "failed";
  public static final String STOPPED = "stopped";
}
