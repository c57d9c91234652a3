package com.crmflow.api.enrollment;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
@RequestMapping("/api/v1/sequences")
class EnrollmentController {

  private static final List<String> STATUSES =
      List.of(Enrollment.ACTIVE, Enrollment.COMPLETED, Enrollment.FAILED, Enrollment.UNENROLLED);

  private final EnrollmentService service;
  private final EnrollmentRepository enrollments;
  private final SequenceRepository sequences;
  private final BulkEnrollments bulk;

  EnrollmentController(
      EnrollmentService service,
      EnrollmentRepository enrollments,
      SequenceRepository sequences,
      BulkEnrollments bulk) {
    this.service = service;
    this.enrollments = enrollments;
    this.sequences = sequences;
    this.bulk = bulk;
  }

  /**
   * The spec's 201 {@code {enrollment, sequence_name}}, also when the enrollment existed; 403 when
   * the key lacks a scope the sequence's nodes act with.
   */
  @PostMapping("/enroll")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  EnrollmentAnswer enroll(
      Caller caller,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = EnrollmentInput.class)))
          @RequestBody
          JsonNode body) {
    return answer(service.enroll(caller, JsonBodies.requireObject(body)));
  }

  /** 200 {@code {enrollment, sequence_name}} with status unenrolled; 409 when not active. */
  @PostMapping("/unenroll")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  EnrollmentAnswer unenroll(
      Caller caller,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = EnrollmentInput.class)))
          @RequestBody
          JsonNode body) {
    return answer(service.unenroll(caller, JsonBodies.requireObject(body)));
  }

  /**
   * {@code {enrollments, total, limit, offset}}, newest first; each with its run, current step (the
   * latest node of its run) and next_step_at (when a waiting delay ends).
   */
  @GetMapping("/{id}/enrollments")
  @RequiresScope(Scope.SEQUENCES_READ)
  EnrollmentPage list(
      Caller caller,
      @PathVariable UUID id,
      @RequestParam(required = false) String status,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    if (status != null && !STATUSES.contains(status)) {
      throw ApiException.badRequest("status", "must be one of " + STATUSES);
    }
    Paging paging = Paging.of(limit, offset);
    sequences.find(caller.tenantId(), id).orElseThrow(() -> ApiException.notFound("Sequence", id));
    List<ListedEnrollment> page =
        enrollments.list(caller.tenantId(), id, status, paging.limit(), paging.offset()).stream()
            .map(EnrollmentController::listed)
            .toList();
    return new EnrollmentPage(
        page, enrollments.count(caller.tenantId(), id, status), paging.limit(), paging.offset());
  }

  /**
   * 202 {@code {job}}: a durable job that enrolls every contact the filter matches, a page at a
   * time (see {@link BulkEnrollments}); its progress at {@code GET .../enrollments/bulk/{jobId}}.
   * The scopes of one enrollment (sequences:write and those the sequence's nodes act with) and
   * contacts:read.
   */
  @PostMapping("/{id}/enrollments/bulk")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.ACCEPTED)
  BulkJobAnswer enrollInBulk(
      Caller caller,
      @PathVariable UUID id,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = BulkEnrollmentInput.class)))
          @RequestBody
          JsonNode body) {
    return new BulkJobAnswer(bulk.start(caller, id, JsonBodies.requireObject(body)).view());
  }

  /** 200 {@code {job}}: how far the bulk enrollment is. */
  @GetMapping("/{id}/enrollments/bulk/{jobId}")
  @RequiresScope(Scope.SEQUENCES_READ)
  BulkJobAnswer bulkJob(Caller caller, @PathVariable UUID id, @PathVariable UUID jobId) {
    return new BulkJobAnswer(
        bulk.find(caller.tenantId(), id, jobId)
            .orElseThrow(() -> ApiException.notFound("Bulk enrollment", jobId))
            .view());
  }

  /** {@code {job}}. */
  record BulkJobAnswer(BulkEnrollmentJob.View job) {}

  /**
   * The body of a bulk enrollment: contact fields to match (each for equality; {@code email}
   * exactly, {@code search} as the contact list's search), all of them; {@code {}} for every
   * contact.
   */
  record BulkEnrollmentInput(
      @Schema(
              requiredMode = Schema.RequiredMode.REQUIRED,
              example = "{\"lifecycle_stage\": \"lead\"}",
              description =
                  "lifecycle_stage, lead_status, lead_source, company, job_title, email, search")
          Map<String, String> filter) {}

  private static EnrollmentAnswer answer(EnrollmentService.Enrolled enrolled) {
    return new EnrollmentAnswer(enrolled.enrollment().view(), enrolled.sequenceName());
  }

  private static ListedEnrollment listed(EnrollmentRepository.Progress progress) {
    Enrollment e = progress.enrollment();
    return new ListedEnrollment(
        e.id(),
        e.sequenceId(),
        e.contactId(),
        e.status(),
        e.runId(),
        progress.currentNodeId() == null
            ? null
            : new CurrentStep(
                progress.currentNodeId(), progress.currentNodeType(), progress.currentNodeStatus()),
        progress.nextStepAt(),
        e.enrolledAt(),
        e.endedAt(),
        e.updatedAt());
  }

  /** {@code {enrollment, sequence_name}}. */
  record EnrollmentAnswer(Enrollment.EnrollmentView enrollment, String sequenceName) {}

  /** The step a run is at: the node, its type, and how it stands. */
  record CurrentStep(String nodeId, String nodeType, String status) {}

  /** An enrollment with its run's progress. */
  record ListedEnrollment(
      UUID id,
      UUID sequenceId,
      UUID contactId,
      @Schema(allowableValues = {"active", "completed", "failed", "unenrolled"}) String status,
      UUID runId,
      CurrentStep currentStep,
      @Schema(format = "date-time") String nextStepAt,
      OffsetDateTime enrolledAt,
      OffsetDateTime endedAt,
      OffsetDateTime updatedAt) {}

  /** {@code {enrollments, total, limit, offset}}. */
  record EnrollmentPage(List<ListedEnrollment> enrollments, long total, int limit, int offset) {}

  /** The body of enroll and unenroll: the sequence, and the contact by id or by email. */
  record EnrollmentInput(
      @Schema(requiredMode = Schema.RequiredMode.REQUIRED) UUID sequenceId,
      @Schema(description = "this or contact_email") UUID contactId,
      @Schema(format = "email", description = "this or contact_id") String contactEmail) {}
}
