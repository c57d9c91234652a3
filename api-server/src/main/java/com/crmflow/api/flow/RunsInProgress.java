package com.crmflow.api.flow;

import java.util.UUID;

/**
 * What a change of a flow's status asks of its runs in progress (hold, release, end or continue),
 * asked in the transaction of the change. The runs' side carries it out (runcontrol), so a flow
 * names no package above it.
 */
public interface RunsInProgress {

  /**
   * Asks every run in progress of the flow to take {@code action}, for {@code reason}.
   *
   * @return the action and the number of runs it applies to
   */
  InFlight ask(UUID tenantId, UUID sequenceId, String action, String reason);
}
