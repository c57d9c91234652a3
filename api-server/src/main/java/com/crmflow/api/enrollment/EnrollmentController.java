package com.crmflow.api.enrollment;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.auth.RequiresScope;
import com.crmflow.api.auth.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.sequence.SequenceRepository;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
import java.util.LinkedHashMap;
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

  EnrollmentController(
      EnrollmentService service, EnrollmentRepository enrollments, SequenceRepository sequences) {
    this.service = service;
    this.enrollments = enrollments;
    this.sequences = sequences;
  }

  /** The spec's 201 {@code {enrollment, sequence_name}}, also when the enrollment existed. */
  @PostMapping("/enroll")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  Map<String, Object> enroll(Caller caller, @RequestBody JsonNode body) {
    return answer(service.enroll(caller.tenantId(), JsonBodies.requireObject(body)));
  }

  /** 200 {@code {enrollment, sequence_name}} with status unenrolled; 409 when not active. */
  @PostMapping("/unenroll")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  Map<String, Object> unenroll(Caller caller, @RequestBody JsonNode body) {
    return answer(service.unenroll(caller.tenantId(), JsonBodies.requireObject(body)));
  }

  /**
   * {@code {enrollments, total, limit, offset}}, newest first; each with its run, current step (the
   * latest node of its run) and next_step_at (when a waiting delay ends).
   */
  @GetMapping("/{id}/enrollments")
  @RequiresScope(Scope.SEQUENCES_READ)
  Map<String, Object> list(
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
    List<Map<String, Object>> page =
        enrollments.list(caller.tenantId(), id, status, paging.limit(), paging.offset()).stream()
            .map(EnrollmentController::listed)
            .toList();
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("enrollments", page);
    response.put("total", enrollments.count(caller.tenantId(), id, status));
    response.put("limit", paging.limit());
    response.put("offset", paging.offset());
    return response;
  }

  private static Map<String, Object> answer(EnrollmentService.Enrolled enrolled) {
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("enrollment", enrolled.enrollment().view());
    response.put("sequence_name", enrolled.sequenceName());
    return response;
  }

  private static Map<String, Object> listed(EnrollmentRepository.Progress progress) {
    Enrollment e = progress.enrollment();
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("id", e.id());
    item.put("sequence_id", e.sequenceId());
    item.put("contact_id", e.contactId());
    item.put("status", e.status());
    item.put("run_id", e.runId());
    Map<String, Object> step = null;
    if (progress.currentNodeId() != null) {
      step = new LinkedHashMap<>();
      step.put("node_id", progress.currentNodeId());
      step.put("node_type", progress.currentNodeType());
      step.put("status", progress.currentNodeStatus());
    }
    item.put("current_step", step);
    item.put("next_step_at", progress.nextStepAt());
    item.put("enrolled_at", e.enrolledAt());
    item.put("ended_at", e.endedAt());
    item.put("updated_at", e.updatedAt());
    return item;
  }
}
