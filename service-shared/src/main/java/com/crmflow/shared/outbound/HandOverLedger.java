package com.crmflow.shared.outbound;

import java.util.Optional;

/**
 * A durable copy of {@link HandOver}'s marks, for activities that run next to the service's
 * database. Optional: the stand-alone worker has none, and relies on the Temporal server keeping
 * the heartbeat.
 */
public interface HandOverLedger {

  /** The last mark recorded for the effect, if any. */
  Optional<String> state(String effectKey);

  /** Records the mark, committed before it returns. */
  void record(String effectKey, String state);
}
