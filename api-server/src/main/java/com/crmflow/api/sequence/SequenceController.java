package com.crmflow.api.sequence;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.auth.RequiresScope;
import com.crmflow.api.auth.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
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
class SequenceController {

  private final SequenceRepository sequences;
  private final SequenceService service;

  SequenceController(SequenceRepository sequences, SequenceService service) {
    this.sequences = sequences;
    this.service = service;
  }

  /**
   * {@code {sequences}}: by default the active ones (those available for enrollment and
   * triggering); {@code status} (or {@code all}) and {@code flow_type} filter otherwise.
   */
  @GetMapping
  @RequiresScope(Scope.SEQUENCES_READ)
  Map<String, List<Sequence>> list(
      Caller caller,
      @RequestParam(required = false) String status,
      @RequestParam(name = "flow_type", required = false) String flowType,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    String statusFilter = status == null ? Sequence.ACTIVE : status;
    if (!"all".equals(statusFilter) && !SequenceSchema.STATUSES.contains(statusFilter)) {
      throw ApiException.badRequest("status", "must be all or one of " + SequenceSchema.STATUSES);
    }
    if (flowType != null && !SequenceSchema.FLOW_TYPES.contains(flowType)) {
      throw ApiException.badRequest("flow_type", "must be one of " + SequenceSchema.FLOW_TYPES);
    }
    Paging paging = Paging.of(limit, offset);
    return Map.of(
        "sequences",
        sequences.list(
            caller.tenantId(),
            "all".equals(statusFilter) ? null : statusFilter,
            flowType,
            paging.limit(),
            paging.offset()));
  }

  @GetMapping("/{id}")
  @RequiresScope(Scope.SEQUENCES_READ)
  Map<String, Sequence> get(Caller caller, @PathVariable UUID id) {
    return Map.of(
        "sequence",
        sequences
            .find(caller.tenantId(), id)
            .orElseThrow(() -> ApiException.notFound("Sequence", id)));
  }

  /** 201 {@code {sequence}}; builder_mode linear, flow_type sequence, status draft by default. */
  @PostMapping
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  Map<String, Sequence> create(Caller caller, @RequestBody JsonNode body) {
    return Map.of("sequence", service.create(caller.tenantId(), JsonBodies.requireObject(body)));
  }

  @PatchMapping("/{id}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  Map<String, Sequence> patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    return Map.of("sequence", service.patch(caller.tenantId(), id, JsonBodies.requireObject(body)));
  }
}
