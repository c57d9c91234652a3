package com.crmflow.api.runcontrol;

import java.util.UUID;

/**
 * An ask of a flow's runs in progress (hold, release, end), handed to each run a page at a time.
 *
 * @param runs the runs in progress when it was asked
 * @param runsAsked the runs asked so far
 * @param afterRun the last run of the last page done (the job goes on after it)
 */
record RunControlJob(
    UUID id,
    UUID tenantId,
    UUID sequenceId,
    String action,
    String reason,
    long generation,
    String status,
    long runs,
    long runsAsked,
    UUID afterRun) {

  static final String RUNNING = "running";
  static final String COMPLETED = "completed";
}
