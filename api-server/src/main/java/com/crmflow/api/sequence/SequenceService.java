package com.crmflow.api.sequence;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.canvas.CanvasRepository;
import com.crmflow.api.canvas.CanvasService;
import com.crmflow.api.canvas.FlowScopes;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.rules.CanvasRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;

@Service
class SequenceService {

  private final SequenceRepository sequences;
  private final CanvasRepository canvases;
  private final ApplicationEventPublisher publisher;
  private final NodeTypes nodeTypes;
  private final CanvasService canvasService;

  SequenceService(
      SequenceRepository sequences,
      CanvasRepository canvases,
      ApplicationEventPublisher publisher,
      NodeTypes nodeTypes,
      CanvasService canvasService) {
    this.sequences = sequences;
    this.canvases = canvases;
    this.publisher = publisher;
    this.nodeTypes = nodeTypes;
    this.canvasService = canvasService;
  }

  @Transactional
  Sequence create(UUID tenantId, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = SequenceSchema.CREATE.validate(body, true, Set.of(), problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    boolean automation = "automation".equals(fields.get("flow_type"));
    if (automation && !"visual".equals(fields.get("builder_mode"))) {
      throw ApiException.badRequest(
          "builder_mode", "an automation (flow_type automation) is built in visual mode");
    }
    if ("active".equals(fields.get("status"))) {
      // a new flow has an empty canvas: it cannot start out active
      throw ApiException.unprocessable(
          "A new sequence has no steps yet; create it as draft and activate it once complete.",
          List.of(new FieldProblem("status", "the canvas has no nodes")));
    }
    return sequences.insert(tenantId, fields);
  }

  /**
   * PATCH: name, description, status. Activation checks the canvas for completeness (422) and that
   * the caller's key holds the scopes its nodes act with (403, {@link FlowScopes}), and records the
   * key that activated it.
   */
  @Transactional
  Sequence patch(Caller caller, UUID id, JsonNode body) {
    UUID tenantId = caller.tenantId();
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = SequenceSchema.UPDATE.validate(body, false, Set.of(), problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    Sequence sequence =
        sequences.lock(tenantId, id).orElseThrow(() -> ApiException.notFound("Sequence", id));
    if (fields.isEmpty()) {
      return sequence;
    }
    if (Sequence.ACTIVE.equals(fields.get("status"))) {
      Canvas canvas = canvases.versionOrEmpty(tenantId, id, sequence.currentVersion()).toCanvas();
      List<CanvasProblem> incomplete =
          CanvasRules.completeness(canvas, sequence.isAutomation(), nodeTypes);
      if (!incomplete.isEmpty()) {
        throw ApiException.unprocessable(
            "The sequence cannot be activated: " + incomplete.size() + " problem(s) in its canvas.",
            incomplete.stream().map(CanvasService::asFieldProblem).toList());
      }
      FlowScopes.requireHeldBy(caller, canvas, "Activating this flow", nodeTypes);
      fields.put("activated_by_key_id", caller.apiKeyId());
    }
    sequences.update(tenantId, id, fields);
    if (fields.containsKey("status")) {
      publisher.publishEvent(new FlowChanged(tenantId, id));
    }
    return sequences.find(tenantId, id).orElseThrow();
  }

  /**
   * A draft copy of the flow, named as given or "… (copy)", with its latest canvas as its first
   * version ({@link CanvasService#copy}).
   */
  @Transactional
  Sequence duplicate(Caller caller, UUID id, JsonNode body) {
    UUID tenantId = caller.tenantId();
    Sequence source =
        sequences.find(tenantId, id).orElseThrow(() -> ApiException.notFound("Sequence", id));
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> given =
        body == null
            ? Map.of()
            : SequenceSchema.DUPLICATE.validate(body, false, Set.of(), problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    Map<String, Object> fields = new java.util.LinkedHashMap<>();
    fields.put(
        "name",
        given.get("name") instanceof String name && !name.isBlank()
            ? name
            : source.name() + " (copy)");
    fields.put("description", source.description());
    fields.put("builder_mode", source.builderMode());
    fields.put("flow_type", source.flowType());
    Sequence copy = sequences.insert(tenantId, fields);
    if (source.currentVersion() > 0) {
      canvasService.copy(caller, id, copy.id());
    }
    return sequences.find(tenantId, copy.id()).orElseThrow();
  }

  /**
   * Deletes a flow that is not active and has no runs and no enrollments (409 otherwise, saying
   * what it has): a flow with runs keeps them, and is archived instead.
   */
  @Transactional
  void delete(UUID tenantId, UUID id) {
    Sequence sequence =
        sequences.lock(tenantId, id).orElseThrow(() -> ApiException.notFound("Sequence", id));
    String kind = sequence.isAutomation() ? "automation" : "sequence";
    if (Sequence.ACTIVE.equals(sequence.status())) {
      throw ApiException.conflict(
          "“" + sequence.name() + "” is active: pause or archive it before deleting it.");
    }
    SequenceRepository.RunCounts runs = sequences.runCounts(tenantId, id);
    long enrollments = sequences.enrollmentCount(tenantId, id);
    if (runs.total() > 0 || enrollments > 0) {
      String held =
          runs.total() > 0
              ? runs.total()
                  + (runs.total() == 1 ? " run" : " runs")
                  + (runs.running() > 0 ? " (" + runs.running() + " in progress)" : "")
              : enrollments + (enrollments == 1 ? " enrollment" : " enrollments");
      throw ApiException.conflict(
          "This "
              + kind
              + " has "
              + held
              + ", which are kept: archive it instead (it starts no more runs, the runs in"
              + " progress finish, and its history stays readable).");
    }
    if (runs.testsRunning() > 0) {
      throw ApiException.conflict(
          "A test run of this " + kind + " is in progress; delete it once the test run ends.");
    }
    if (sequences.scheduleCount(tenantId, id) > 0) {
      throw ApiException.conflict(
          "This " + kind + "'s schedule is still stopping; delete it again in a moment.");
    }
    sequences.delete(tenantId, id);
  }
}
