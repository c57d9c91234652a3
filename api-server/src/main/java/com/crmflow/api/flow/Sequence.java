package com.crmflow.api.flow;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * A sequence (contact-enrollment flow) or an automation (flow_type automation, builder_mode
 * visual). step_count counts the nodes of its latest canvas that are not triggers;
 * activated_by_key_id is the API key that last activated it (null: never activated, or by a key
 * since deleted). trigger_type is the type of its latest canvas's trigger (null: none); last_run_at
 * and last_run_status are those of its newest run (null: it never ran).
 */
public record Sequence(
    UUID id,
    String name,
    String description,
    @Schema(allowableValues = {"draft", "active", "paused", "archived"}) String status,
    int stepCount,
    @Schema(allowableValues = {"linear", "visual"}) String builderMode,
    @Schema(allowableValues = {"sequence", "automation"}) String flowType,
    int currentVersion,
    UUID activatedByKeyId,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt,
    @Schema(description = "its latest canvas's trigger node type", nullable = true)
        String triggerType,
    @Schema(description = "when its newest run started", nullable = true) OffsetDateTime lastRunAt,
    @Schema(
            description = "its newest run's status",
            allowableValues = {"running", "completed", "failed", "cancelled"},
            nullable = true)
        String lastRunStatus) {

  public static final String AUTOMATION = "automation";
  public static final String SEQUENCE = "sequence";
  public static final String ACTIVE = "active";

  public boolean isAutomation() {
    return AUTOMATION.equals(flowType);
  }
}
