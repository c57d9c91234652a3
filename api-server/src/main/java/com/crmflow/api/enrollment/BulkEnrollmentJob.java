package com.crmflow.api.enrollment;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

/**
 * A bulk enrollment: the contacts a filter matches, enrolled in a sequence a page at a time.
 *
 * @param contactsSeen contacts the filter matched so far (each enrolled, or found enrolled)
 * @param enrolled contacts this job enrolled (a new run each)
 * @param alreadyActive contacts whose enrollment was active already, or whom the sequence's
 *     re-enrollment rule holds (nothing started for them)
 * @param afterContact the last contact of the last page done (the job goes on after it)
 */
record BulkEnrollmentJob(
    UUID id,
    UUID tenantId,
    UUID sequenceId,
    Map<String, String> filter,
    String status,
    long contactsSeen,
    long enrolled,
    long alreadyActive,
    UUID afterContact,
    String error,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt,
    OffsetDateTime finishedAt) {

  static final String RUNNING = "running";
  static final String COMPLETED = "completed";
  static final String FAILED = "failed";

  /** What the API shows of a job. */
  record View(
      UUID id,
      UUID sequenceId,
      Map<String, String> filter,
      @Schema(allowableValues = {"running", "completed", "failed"}) String status,
      long contactsSeen,
      long enrolled,
      long alreadyActive,
      String error,
      OffsetDateTime createdAt,
      OffsetDateTime updatedAt,
      OffsetDateTime finishedAt) {}

  View view() {
    return new View(
        id,
        sequenceId,
        filter,
        status,
        contactsSeen,
        enrolled,
        alreadyActive,
        error,
        createdAt,
        updatedAt,
        finishedAt);
  }
}
