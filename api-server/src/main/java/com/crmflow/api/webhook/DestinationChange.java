package com.crmflow.api.webhook;

/**
 * What a change of a subscription's url or secret does to its deliveries, in the words the delivery
 * log shows. A delivery goes only to the url, and is signed only with the secret, its subscription
 * had when its event was recorded: a url moved elsewhere never receives earlier events, and a
 * secret rotated because it leaked never signs again. So a change of either ends the pending
 * deliveries as {@code stopped}, saying why, instead of sending them to the new destination.
 */
final class DestinationChange {

  /** The last_error of an event recorded before the change and dispatched after it. */
  static final String RECORDED_BEFORE =
      "Not sent: the subscription's url or secret changed after this event was recorded; a"
          + " delivery goes only to the url, signed with the secret, its subscription had then.";

  private DestinationChange() {}

  /**
   * The last_error of the deliveries a PATCH ends.
   *
   * @param url whether the url changed
   * @param secret whether the secret was set, changed or removed
   */
  static String ended(boolean url, boolean secret) {
    String what = url && secret ? "url and secret were" : url ? "url was" : "secret was";
    return "Not sent: the subscription's "
        + what
        + " changed while this delivery was pending; a delivery goes only to the url, signed with"
        + " the secret, its subscription had when the event was recorded.";
  }
}
