package com.crmflow.api.run;

import java.time.Instant;
import java.util.UUID;

/**
 * Told how a run's work comes due: when it starts waiting on a timer, and when it ends. The
 * admission counts the runs due with it: {@link RunAdmission} itself, or {@link SharedRunProgress}
 * where api-servers share their runs (it tells the others too).
 */
public interface RunProgress {

  /** The run waits on a timer until then: it is not due before. */
  void waitsUntil(UUID runId, Instant until);

  /** The run ended (completed, failed or cancelled). */
  void ended(UUID runId);
}
