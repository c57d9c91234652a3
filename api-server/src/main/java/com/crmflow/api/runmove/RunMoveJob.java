package com.crmflow.api.runmove;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A move of a flow's waiting runs to another version, asked of each run a page at a time.
 *
 * @param runs the waiting runs of its versions when it was asked
 * @param skipped the runs it could not move so far, by reason
 * @param afterRun the last run of the last page done (the job goes on after it)
 */
record RunMoveJob(
    UUID id,
    UUID tenantId,
    UUID sequenceId,
    int toVersion,
    List<Integer> fromVersions,
    Map<String, String> mapping,
    boolean recomputeDelays,
    UUID apiKeyId,
    String status,
    long runs,
    Map<String, Long> skipped,
    UUID afterRun,
    OffsetDateTime createdAt,
    OffsetDateTime finishedAt) {

  static final String RUNNING = "running";
}
