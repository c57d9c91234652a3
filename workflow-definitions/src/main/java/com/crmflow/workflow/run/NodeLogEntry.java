package com.crmflow.workflow.run;

import java.util.Map;

/**
 * One entry of a run's node_log. {@code seq} orders entries by execution start and, with the run
 * id, keys the stored row, so a retried recording replaces instead of duplicating.
 *
 * @param status running, completed, failed or skipped
 * @param startedAt ISO-8601 with milliseconds
 * @param completedAt ISO-8601 with milliseconds, null while running
 */
public record NodeLogEntry(
    int seq,
    String nodeId,
    String nodeType,
    String status,
    String startedAt,
    String completedAt,
    Map<String, Object> output,
    String error) {}
