package com.crmflow.shared.outbound;

/**
 * Told when an http_request node's call goes out and when it is over, with the call's
 * Idempotency-Key ({@code <run id>:<node id>}). api-server uses it so that runs waiting on a slow
 * peer do not count as work waiting for this process (TriggerAdmission); none in a plain worker.
 */
public interface OutboundCallObserver {

  void callStarted(String idempotencyKey);

  void callEnded(String idempotencyKey);
}
