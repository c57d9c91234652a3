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

  SequenceService(
      SequenceRepository sequences,
      CanvasRepository canvases,
      ApplicationEventPublisher publisher,
      NodeTypes nodeTypes) {
    this.sequences = sequences;
    this.canvases = canvases;
    this.publisher = publisher;
    this.nodeTypes = nodeTypes;
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
}
