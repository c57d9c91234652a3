package com.crmflow.api.flow;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
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

  private static final String ALL = "all";

  /** The longest name search: a flow's name is at most a short text. */
  private static final int MAX_QUERY = 200;

  private final SequenceRepository sequences;
  private final SequenceService service;

  SequenceController(SequenceRepository sequences, SequenceService service) {
    this.sequences = sequences;
    this.service = service;
  }

  /**
   * {@code {sequences, total, limit, offset}}, newest first. By default the spec's "active
   * sequences available for enrollment": status active, flow_type sequence (automations cannot be
   * enrolled). {@code status} ({@code all} for every status) and {@code flow_type} ({@code
   * automation}, or {@code all} for both) filter otherwise; {@code q} keeps the flows whose name
   * holds it (case aside).
   */
  @GetMapping
  @RequiresScope(Scope.SEQUENCES_READ)
  SequencePage list(
      Caller caller,
      @RequestParam(required = false) String status,
      @RequestParam(name = "flow_type", required = false) String flowType,
      @RequestParam(required = false) String q,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    String statusFilter = status == null ? Sequence.ACTIVE : status;
    if (!ALL.equals(statusFilter) && !SequenceSchema.STATUSES.contains(statusFilter)) {
      throw ApiException.badRequest("status", "must be all or one of " + SequenceSchema.STATUSES);
    }
    String flowFilter = flowType == null ? Sequence.SEQUENCE : flowType;
    if (!ALL.equals(flowFilter) && !SequenceSchema.FLOW_TYPES.contains(flowFilter)) {
      throw ApiException.badRequest(
          "flow_type", "must be all or one of " + SequenceSchema.FLOW_TYPES);
    }
    if (q != null && q.length() > MAX_QUERY) {
      throw ApiException.badRequest("q", "must be at most " + MAX_QUERY + " characters");
    }
    Paging paging = Paging.of(limit, offset);
    String statusOrNull = ALL.equals(statusFilter) ? null : statusFilter;
    String flowOrNull = ALL.equals(flowFilter) ? null : flowFilter;
    return new SequencePage(
        sequences.list(
            caller.tenantId(), statusOrNull, flowOrNull, q, paging.limit(), paging.offset()),
        sequences.count(caller.tenantId(), statusOrNull, flowOrNull, q),
        paging.limit(),
        paging.offset());
  }

  @GetMapping("/{id}")
  @RequiresScope(Scope.SEQUENCES_READ)
  SequenceAnswer get(Caller caller, @PathVariable UUID id) {
    return new SequenceAnswer(
        sequences
            .find(caller.tenantId(), id)
            .orElseThrow(() -> ApiException.notFound("Sequence", id)));
  }

  /** 201 {@code {sequence}}; builder_mode linear, flow_type sequence, status draft by default. */
  @PostMapping
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  SequenceAnswer create(Caller caller, @RequestBody JsonNode body) {
    return new SequenceAnswer(service.create(caller.tenantId(), JsonBodies.requireObject(body)));
  }

  /**
   * {@code {sequence, in_flight}}: in_flight says what a change of status did to the flow's runs in
   * progress ({@code {action, runs}}), null when the status did not change.
   */
  @PatchMapping("/{id}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  SequencePatched patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    SequenceService.Patched patched = service.patch(caller, id, JsonBodies.requireObject(body));
    return new SequencePatched(patched.sequence(), patched.inFlight());
  }

  /**
   * 201 {@code {sequence}}: a draft copy named {@code name} (default "… (copy)") with the flow's
   * latest canvas; its triggers get new ids (a webhook a new address), each secret comes along
   * except a webhook trigger's token, which a new address does not share.
   */
  @PostMapping("/{id}/duplicate")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  SequenceAnswer duplicate(
      Caller caller, @PathVariable UUID id, @RequestBody(required = false) JsonNode body) {
    return new SequenceAnswer(
        service.duplicate(
            caller, id, body == null || body.isNull() ? null : JsonBodies.requireObject(body)));
  }

  /**
   * Deletes a flow that is not active and has never run nor enrolled anyone, with its canvas
   * versions: {@code {deleted: true}}. A flow with runs keeps them (409): it is archived instead,
   * which starts no more runs, lets the runs in progress finish and keeps its history.
   */
  @DeleteMapping("/{id}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  Deleted delete(Caller caller, @PathVariable UUID id) {
    service.delete(caller.tenantId(), id);
    return new Deleted(true);
  }

  /** {@code {deleted}}. */
  record Deleted(boolean deleted) {}

  /** {@code {sequence}}. */
  record SequenceAnswer(Sequence sequence) {}

  /** {@code {sequence, in_flight}}. */
  record SequencePatched(
      Sequence sequence,
      @Schema(
              description =
                  "what the change of status did to the flow's runs in progress: continue, hold,"
                      + " end or release, and how many runs were in progress; null when the"
                      + " status did not change",
              nullable = true)
          InFlight inFlight) {}

  /** {@code {sequences, total, limit, offset}}. */
  record SequencePage(List<Sequence> sequences, long total, int limit, int offset) {}
}
