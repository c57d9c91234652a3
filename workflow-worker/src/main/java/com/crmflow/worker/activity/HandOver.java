package com.crmflow.worker.activity;

import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import javax.net.ssl.SSLHandshakeException;
import org.apache.hc.client5.http.ConnectTimeoutException;

/**
 * Keeps a retried activity from repeating an effect its receiver cannot recognise as a repeat (an
 * email over SMTP, a chat post): SMTP and chat APIs take no idempotency key. An attempt that stops
 * after the receiver took the message but before Temporal heard of it would, retried, deliver it
 * again.
 *
 * <p>So just before the message goes out, the attempt records {@link #UNDER_WAY} as its heartbeat
 * (the first heartbeat of an attempt is a synchronous call to Temporal). An attempt that finds that
 * mark left by the one before it does not send: it fails, not retried, as outcome unknown. An
 * attempt that knows nothing was delivered (no connection, or the receiver answered no) replaces
 * the mark with {@link #NOT_DELIVERED}, which Temporal hands the next attempt with the failure, so
 * those failures are retried as before. If Temporal cannot be reached at the moment of the mark,
 * the SDK only logs it, and that one attempt goes ahead unmarked.
 */
public final class HandOver {

  static final String UNDER_WAY = "handing-over";
  static final String NOT_DELIVERED = "not-delivered";

  private final ActivityExecutionContext attempt;
  private final String what;
  private final String unknownOutcomeType;

  private HandOver(ActivityExecutionContext attempt, String what, String unknownOutcomeType) {
    this.attempt = attempt;
    this.what = what;
    this.unknownOutcomeType = unknownOutcomeType;
  }

  /**
   * For the current activity attempt.
   *
   * @param what the effect, for the error ("the email")
   * @param unknownOutcomeType the failure type when it may have been delivered
   * @throws ApplicationFailure (not retried) when the attempt before stopped mid-hand-over
   */
  public static HandOver begin(String what, String unknownOutcomeType) {
    ActivityExecutionContext attempt = Activity.getExecutionContext();
    HandOver handOver = new HandOver(attempt, what, unknownOutcomeType);
    if (attempt.getHeartbeatDetails(String.class).filter(UNDER_WAY::equals).isPresent()) {
      throw handOver.outcomeUnknown("an earlier attempt stopped while handing it over");
    }
    return handOver;
  }

  /** From here on the receiver may get the message. */
  public void start() {
    attempt.heartbeat(UNDER_WAY);
  }

  /** Nothing was delivered: the next attempt may send. Call before throwing the failure. */
  public void notDelivered() {
    attempt.heartbeat(NOT_DELIVERED);
  }

  /** The failure for a hand-over whose outcome is unknown: not retried. */
  public ApplicationFailure outcomeUnknown(String why) {
    return ApplicationFailure.newNonRetryableFailure(
        what
            + " may have been delivered ("
            + why
            + "); it is not sent again, so it cannot arrive twice. Retry the run from this node"
            + " to send it anyway",
        unknownOutcomeType);
  }

  /**
   * Whether an HTTP call's failure happened before any byte of the request could reach the server:
   * no connection (refused, timed out, unknown host) or no TLS session.
   */
  public static boolean neverSent(IOException failure) {
    return failure instanceof ConnectException
        || failure instanceof ConnectTimeoutException
        || failure instanceof UnknownHostException
        || failure instanceof SSLHandshakeException;
  }
}
