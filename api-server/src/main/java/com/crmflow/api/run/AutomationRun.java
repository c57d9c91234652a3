package com.crmflow.api.run;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A run record (the spec's Automation run), plus workflow_id (where to find it in the Temporal UI),
 * canvas_version, retry_of and enrollment_id (set for the runs of sequence enrollments). node_log
 * entries keep the spec's camelCase names.
 */
public record AutomationRun(
    UUID id,
    UUID tenantId,
    UUID sequenceId,
    int canvasVersion,
    String triggerNodeId,
    String startNodeId,
    Object triggerPayload,
    @Schema(allowableValues = {"running", "completed", "failed", "cancelled"}) String status,
    List<Map<String, Object>> nodeLog,
    String error,
    String workflowId,
    UUID retryOf,
    UUID enrollmentId,
    OffsetDateTime startedAt,
    OffsetDateTime completedAt,
    OffsetDateTime createdAt) {

  public AutomationRun withNodeLog(List<Map<String, Object>> log) {
    return new AutomationRun(
        id,
        tenantId,
        sequenceId,
        canvasVersion,
        triggerNodeId,
        startNodeId,
        triggerPayload,
        status,
        log,
        error,
        workflowId,
        retryOf,
        enrollmentId,
        startedAt,
        completedAt,
        createdAt);
  }
}
