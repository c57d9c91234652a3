package com.crmflow.api.run;

import java.util.UUID;

/**
 * Told when a run ends (completed, failed or cancelled), inside the transaction that records the
 * end, so what it changes commits together with the run's status.
 */
public interface RunEndListener {

  void runEnded(UUID runId, String status);
}
