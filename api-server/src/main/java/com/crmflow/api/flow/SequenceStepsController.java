package com.crmflow.api.flow;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.Position;
import com.crmflow.workflow.node.NodeSecrets;
import com.crmflow.workflow.rules.CanvasRules;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * The linear builder: a sequence with builder_mode linear edits an ordered step list, stored as a
 * canvas that is a chain (step-1 → step-2 → ...), so linear and visual flows share one interpreter,
 * one run log and the canvas endpoints.
 */
@RestController
@RequestMapping("/api/v1/sequences/{id}/steps")
class SequenceStepsController {

  private static final Set<String> STEP_FIELDS = Set.of("id", "type", "label", "config");

  private final CanvasService canvases;
  private final JsonColumns json;

  private final NodeTypes nodeTypes;

  SequenceStepsController(CanvasService canvases, JsonColumns json, NodeTypes nodeTypes) {
    this.canvases = canvases;
    this.json = json;
    this.nodeTypes = nodeTypes;
  }

  @GetMapping
  @RequiresScope(Scope.SEQUENCES_READ)
  StepsAnswer get(Caller caller, @PathVariable UUID id) {
    linear(caller, id);
    return answer(id, canvases.latest(caller.tenantId(), id));
  }

  /**
   * Replaces the steps: {@code {steps: [{id?, type, label?, config?}]}}, 1 to 200 of them. Saved as
   * a new canvas version; required config is checked on activation, as for the canvas. A step is
   * known by its id, never by its place: one with the id of a current step keeps that step's stored
   * secrets (the mask sent back), one without an id is new, named {@code step-<place>} when that
   * name is free, and a mask in it asks for the secret.
   */
  @PutMapping
  @RequiresScope(Scope.SEQUENCES_WRITE)
  StepsAnswer put(
      Caller caller,
      @PathVariable UUID id,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = StepsInput.class)))
          @RequestBody
          JsonNode body) {
    linear(caller, id);
    List<FieldProblem> problems = new ArrayList<>();
    JsonNode steps = body == null ? null : body.get("steps");
    if (body != null && body.isObject()) {
      body.propertyNames().stream()
          .filter(name -> !name.equals("steps"))
          .forEach(name -> problems.add(new FieldProblem(name, "is not a field of a step list")));
    }
    if (steps == null || !steps.isArray() || steps.isEmpty()) {
      problems.add(new FieldProblem("steps", "must be a non-empty array of steps"));
    } else if (steps.size() > CanvasRules.MAX_NODES) {
      problems.add(new FieldProblem("steps", "at most " + CanvasRules.MAX_NODES + " steps"));
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    Set<String> givenIds = new HashSet<>();
    for (int i = 0; i < steps.size(); i++) {
      JsonNode given = steps.get(i) == null ? null : steps.get(i).get("id");
      if (given != null && given.isString() && !givenIds.add(given.asString())) {
        problems.add(new FieldProblem("steps[" + i + "].id", "is the id of another step too"));
      }
    }
    List<CanvasNode> nodes = new ArrayList<>();
    Set<String> usedIds = new HashSet<>(givenIds);
    for (int i = 0; i < steps.size(); i++) {
      nodes.add(step(steps.get(i), i, usedIds, problems));
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    List<CanvasEdge> edges = new ArrayList<>();
    for (int i = 0; i + 1 < nodes.size(); i++) {
      edges.add(
          new CanvasEdge("edge-" + (i + 1), nodes.get(i).id(), nodes.get(i + 1).id(), null, null));
    }
    // steps are no triggers: a step list takes triggers away, which loosens nothing
    return answer(id, canvases.replaceWith(caller, id, new Canvas(nodes, edges), null, false));
  }

  @SuppressWarnings("unchecked")
  private CanvasNode step(
      JsonNode step, int index, Set<String> usedIds, List<FieldProblem> problems) {
    String at = "steps[" + index + "]";
    if (step == null || !step.isObject()) {
      problems.add(new FieldProblem(at, "must be an object {type, label, config}"));
      return null;
    }
    step.propertyNames().stream()
        .filter(name -> !STEP_FIELDS.contains(name))
        .forEach(name -> problems.add(new FieldProblem(at + "." + name, "is not a step field")));
    JsonNode type = step.get("type");
    // a step is any node type but triggers and branching ones (a list has no branches)
    List<String> stepTypes = nodeTypes.stepTypes();
    if (type == null || !type.isString() || !stepTypes.contains(type.asString())) {
      problems.add(new FieldProblem(at + ".type", "must be one of " + stepTypes));
    }
    JsonNode label = step.get("label");
    if (label != null && !label.isNull() && !label.isString()) {
      problems.add(new FieldProblem(at + ".label", "must be a string"));
    }
    JsonNode config = step.get("config");
    if (config != null && !config.isNull() && !config.isObject()) {
      problems.add(new FieldProblem(at + ".config", "must be an object"));
    }
    JsonNode givenId = step.get("id");
    if (givenId != null && !givenId.isNull() && !givenId.isString()) {
      problems.add(new FieldProblem(at + ".id", "must be a string (a step's id from GET)"));
    }
    if (!problems.isEmpty()) {
      return null;
    }
    Map<String, Object> configMap =
        config == null || config.isNull()
            ? Map.of()
            : json.mapper().convertValue(config, Map.class);
    String id;
    if (givenId != null && !givenId.isNull()) {
      id = givenId.asString();
    } else {
      // a new step: nothing stored is kept for it, whatever its place
      NodeSecrets.rewrite(
          nodeTypes,
          type.asString(),
          configMap,
          (path, value) -> {
            if (NodeSecrets.MASK.equals(value) || NodeSecrets.isSealed(value)) {
              problems.add(
                  new FieldProblem(
                      at + ".config." + path,
                      "is the mask of a secret, but this step has no id: send the secret itself,"
                          + " or the id of the step (from GET) whose secret it keeps"));
            }
            return value;
          });
      id = freeId(index, usedIds);
    }
    usedIds.add(id);
    String name =
        label == null || label.isNull() ? type.asString() + " " + (index + 1) : label.asString();
    return new CanvasNode(
        id, type.asString(), new Position(0, index * 150.0), new NodeData(name, configMap));
  }

  /** {@code step-<place>}, or the first {@code step-<n>} after it that no other step has. */
  private static String freeId(int index, Set<String> usedIds) {
    int n = index + 1;
    while (usedIds.contains("step-" + n)) {
      n++;
    }
    return "step-" + n;
  }

  private void linear(Caller caller, UUID id) {
    Sequence sequence = canvases.sequence(caller.tenantId(), id);
    if (!"linear".equals(sequence.builderMode())) {
      throw ApiException.conflict(
          "Sequence " + id + " is built in visual mode; edit it through its canvas.");
    }
  }

  /** The chain from its first step; 409 when the canvas was edited into something else. */
  private StepsAnswer answer(UUID id, CanvasSnapshot snapshot) {
    Canvas canvas = snapshot.toCanvas();
    List<Step> steps = new ArrayList<>();
    List<String> roots = CanvasRules.roots(canvas);
    if (!canvas.nodes().isEmpty()) {
      if (roots.size() != 1) {
        throw notAChain(id);
      }
      Optional<CanvasNode> next = canvas.node(roots.get(0));
      while (next.isPresent()) {
        CanvasNode node = next.get();
        steps.add(
            new Step(
                node.id(),
                node.type(),
                node.data() == null ? null : node.data().label(),
                node.data() == null
                    ? Map.of()
                    : NodeSecrets.masked(nodeTypes, node.type(), node.data().config())));
        List<CanvasEdge> out =
            canvas.edges().stream().filter(e -> e.source().equals(node.id())).toList();
        if (out.size() > 1) {
          throw notAChain(id);
        }
        next = out.isEmpty() ? Optional.empty() : canvas.node(out.get(0).target());
      }
      if (steps.size() != canvas.nodes().size()) {
        throw notAChain(id);
      }
    }
    return new StepsAnswer(id, snapshot.version(), steps);
  }

  private static ApiException notAChain(UUID id) {
    return ApiException.conflict(
        "The canvas of sequence " + id + " is not a chain of steps; read it through the canvas.");
  }

  /** One step of a linear sequence: a node of its canvas, in order. */
  record Step(String id, String type, String label, Map<String, Object> config) {}

  /** {@code {sequence_id, version, steps}}. */
  record StepsAnswer(UUID sequenceId, int version, List<Step> steps) {}

  /**
   * A step of PUT /steps: its type, and optionally its id (a current step's, to keep its stored
   * secrets), label and config.
   */
  record StepInput(
      @Schema(description = "a current step's id: the step keeps its stored secrets") String id,
      @Schema(
              requiredMode = Schema.RequiredMode.REQUIRED,
              description = "a node type whose step is true in GET /api/v1/node-types")
          String type,
      String label,
      Map<String, Object> config) {}

  /** The body of PUT /steps: the whole chain, in order. */
  record StepsInput(
      @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
          @ArraySchema(minItems = 1, maxItems = 200)
          List<StepInput> steps) {}
}
