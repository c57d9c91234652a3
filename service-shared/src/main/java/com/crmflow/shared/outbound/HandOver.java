package com.crmflow.shared.outbound;

import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCanceledException;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import javax.net.ssl.SSLHandshakeException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a retried activity from repeating an effect its receiver cannot recognise as a repeat (an
 * email over SMTP, a chat post): SMTP and chat APIs take no idempotency key. An attempt that stops
 * after the receiver took the message but before Temporal heard of it would, retried, deliver it
 * again.
 *
 * <p>So just before the message goes out, the attempt records {@link #UNDER_WAY} as its heartbeat,
 * and nothing goes out unless Temporal confirmed it: the mark is sent through the client, which
 * throws on failure, not through the activity context, whose heartbeats only log a failure. An
 * attempt that finds that mark left by the one before it does not send: it fails, not retried, as
 * outcome unknown. An attempt that knows nothing was delivered (no connection, the receiver
 * answered no, or the mark could not be recorded) replaces the mark with {@link #NOT_DELIVERED},
 * which Temporal hands the next attempt with the failure, so those failures are retried as before.
 *
 * <p>Where the activity runs next to the service's database ({@link HandOverLedger}, embedded
 * defaults), the marks are also committed there, keyed by the effect (run and node), and the
 * delivery is noted too: an attempt whose predecessor delivered the message but stopped before
 * Temporal heard of its completion finds {@link #DELIVERED} and completes without sending it again,
 * where the heartbeat alone could only fail it as outcome unknown.
 */
public final class HandOver {

  static final String UNDER_WAY = "handing-over";
  static final String NOT_DELIVERED = "not-delivered";
  static final String DELIVERED = "delivered";

  /** The failure type of an attempt that sent nothing because its mark was not recorded. */
  public static final String MARK_NOT_RECORDED = "HandOverMarkNotRecorded";

  private static final Logger log = LoggerFactory.getLogger(HandOver.class);

  private final ActivityExecutionContext attempt;
  private final String what;
  private final String unknownOutcomeType;
  private final HandOverLedger ledger;
  private final String effectKey;
  private boolean deliveredBefore;

  private HandOver(
      ActivityExecutionContext attempt,
      String what,
      String unknownOutcomeType,
      HandOverLedger ledger,
      String effectKey) {
    this.attempt = attempt;
    this.what = what;
    this.unknownOutcomeType = unknownOutcomeType;
    this.ledger = effectKey == null ? null : ledger;
    this.effectKey = effectKey;
  }

  /**
   * For the current activity attempt.
   *
   * @param what the effect, for the error ("the email")
   * @param unknownOutcomeType the failure type when it may have been delivered
   * @param ledger where marks are also kept (null: only with Temporal)
   * @param effectKey the effect, the same for every run of the node in its run (null: no ledger)
   * @throws ApplicationFailure (not retried) when an earlier attempt stopped mid-hand-over
   */
  public static HandOver begin(
      String what, String unknownOutcomeType, HandOverLedger ledger, String effectKey) {
    ActivityExecutionContext attempt = Activity.getExecutionContext();
    HandOver handOver = new HandOver(attempt, what, unknownOutcomeType, ledger, effectKey);
    String recorded = handOver.ledger == null ? null : ledger.state(effectKey).orElse(null);
    if (UNDER_WAY.equals(recorded)
        || attempt.getHeartbeatDetails(String.class).filter(UNDER_WAY::equals).isPresent()) {
      throw handOver.outcomeUnknown("an earlier attempt stopped while handing it over");
    }
    handOver.deliveredBefore = DELIVERED.equals(recorded);
    return handOver;
  }

  /** Whether an earlier run of the node delivered it (known only with a ledger): do not send. */
  public boolean deliveredBefore() {
    return deliveredBefore;
  }

  /**
   * From here on the receiver may get the message.
   *
   * @throws ApplicationFailure (retried) when Temporal did not confirm the mark: nothing was sent
   */
  public void start() {
    if (ledger != null) {
      ledger.record(effectKey, UNDER_WAY);
    }
    try {
      attempt
          .getWorkflowClient()
          .newActivityCompletionClient()
          .heartbeat(attempt.getInfo().getTaskToken(), UNDER_WAY);
    } catch (ActivityCanceledException cancelled) {
      notDelivered();
      throw cancelled;
    } catch (RuntimeException unconfirmed) {
      notDelivered();
      throw ApplicationFailure.newFailureWithCause(
          what
              + " was not sent: Temporal did not confirm the mark that guards it against being"
              + " sent twice ("
              + unconfirmed
              + "); it is tried again",
          MARK_NOT_RECORDED,
          unconfirmed);
    }
  }

  /** Nothing was delivered: the next attempt may send. Call before throwing the failure. */
  public void notDelivered() {
    if (ledger != null) {
      ledger.record(effectKey, NOT_DELIVERED);
    }
    attempt.heartbeat(NOT_DELIVERED); // throws if the activity was cancelled meanwhile
  }

  /** The receiver took it. A failure to note that is only logged: the message did go out. */
  public void delivered() {
    if (ledger == null) {
      return;
    }
    try {
      ledger.record(effectKey, DELIVERED);
    } catch (RuntimeException e) {
      log.warn("{} was delivered but could not be noted as such: {}", effectKey, e.toString());
    }
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
