package com.crmflow.api.run;

import java.time.Instant;
import java.util.UUID;

/**
 * Told how a run's work comes due: when it starts waiting on a timer, and when it ends. The
 * trigger's admission counts the runs due with it; the run package does not need to know who
 * listens.
 */
public interface RunProgress {

  /** The run waits on a timer until then: it is not due before. */
  void waitsUntil(UUID runId, Instant until);

  /** The run ended (completed, failed or cancelled). */
  void ended(UUID runId);
}
