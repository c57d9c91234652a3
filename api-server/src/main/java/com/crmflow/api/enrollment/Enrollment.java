package com.crmflow.api.enrollment;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * A contact's enrollment in a sequence (the spec's Enrollment plus its run and times). status:
 * active (its workflow runs), completed, failed (a step failed; see the run), unenrolled.
 */
public record Enrollment(
    UUID id,
    UUID tenantId,
    UUID sequenceId,
    UUID contactId,
    @Schema(allowableValues = {"active", "completed", "failed", "unenrolled"}) String status,
    UUID runId,
    OffsetDateTime enrolledAt,
    OffsetDateTime endedAt,
    OffsetDateTime updatedAt) {

  public static final String ACTIVE = "active";
  public static final String COMPLETED = "completed";
  public static final String FAILED = "failed";
  public static final String UNENROLLED = "unenrolled";

  /** The spec's shape: {id, sequence_id, contact_id, status}. */
  public EnrollmentView view() {
    return new EnrollmentView(id, sequenceId, contactId, status);
  }

  public record EnrollmentView(
      UUID id,
      UUID sequenceId,
      UUID contactId,
      @Schema(allowableValues = {"active", "completed", "failed", "unenrolled"}) String status) {}
}
