package com.crmflow.api.flow;

import com.crmflow.api.access.Caller;
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
import tools.jackson.databind.node.ObjectNode;

@Service
class SequenceService {

  private final SequenceRepository sequences;
  private final CanvasRepository canvases;
  private final ApplicationEventPublisher publisher;
  private final NodeTypes nodeTypes;
  private final CanvasService canvasService;
  private final RunsInProgress runsInProgress;

  SequenceService(
      SequenceRepository sequences,
      CanvasRepository canvases,
      ApplicationEventPublisher publisher,
      NodeTypes nodeTypes,
      CanvasService canvasService,
      RunsInProgress runsInProgress) {
    this.sequences = sequences;
    this.canvases = canvases;
    this.publisher = publisher;
    this.nodeTypes = nodeTypes;
    this.canvasService = canvasService;
    this.runsInProgress = runsInProgress;
  }

  /** What PATCH did: the flow, and what its change of status did to its runs in progress. */
  record Patched(Sequence sequence, InFlight inFlight) {}

  private static final List<String> IN_FLIGHT =
      List.of(InFlight.CONTINUE, InFlight.HOLD, InFlight.END);

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
   *
   * <p>{@code in_flight} says what a pause or an archive does to the flow's runs in progress:
   * continue (a pause's default), hold (a pause only) or end (an archive's default); it is asked of
   * the runs by a job ({@link RunsInProgress}) that commits with the change. Any other change of
   * status releases runs that a pause held.
   */
  @Transactional
  Patched patch(Caller caller, UUID id, JsonNode body) {
    UUID tenantId = caller.tenantId();
    List<FieldProblem> problems = new ArrayList<>();
    JsonNode givenInFlight = body.get("in_flight");
    JsonNode recordFields = body;
    if (givenInFlight != null) {
      ObjectNode copy = (ObjectNode) body.deepCopy();
      copy.remove("in_flight");
      recordFields = copy;
    }
    Map<String, Object> fields =
        SequenceSchema.UPDATE.validate(recordFields, false, Set.of(), problems);
    String inFlight = inFlight(givenInFlight, fields.get("status"), problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    Sequence sequence =
        sequences.lock(tenantId, id).orElseThrow(() -> ApiException.notFound("Sequence", id));
    if (fields.isEmpty()) {
      return new Patched(sequence, null);
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
    InFlight applied = null;
    if (fields.get("status") instanceof String status
        && (inFlight != null || !status.equals(sequence.status()))) {
      String action =
          inFlight != null ? inFlight : ARCHIVED.equals(status) ? InFlight.END : InFlight.CONTINUE;
      applied =
          runsInProgress.ask(
              tenantId, id, action, ARCHIVED.equals(status) ? "flow archived" : "flow paused");
    }
    if (fields.containsKey("status")) {
      publisher.publishEvent(new FlowChanged(tenantId, id));
    }
    return new Patched(sequences.find(tenantId, id).orElseThrow(), applied);
  }

  private static final String PAUSED = "paused";
  private static final String ARCHIVED = "archived";

  /**
   * The {@code in_flight} given (null: none): continue, hold or end, with a pause or an archive in
   * the same body; hold with a pause only (an archived flow is not resumed, so its runs go on or
   * end).
   */
  private static String inFlight(JsonNode given, Object status, List<FieldProblem> problems) {
    if (given == null || given.isNull()) {
      return null;
    }
    if (!given.isString() || !IN_FLIGHT.contains(given.asString())) {
      problems.add(new FieldProblem("in_flight", "must be one of " + IN_FLIGHT));
      return null;
    }
    String value = given.asString();
    if (!PAUSED.equals(status) && !ARCHIVED.equals(status)) {
      problems.add(
          new FieldProblem(
              "in_flight",
              "says what a pause or an archive does to runs in progress: give it with"
                  + " \"status\": \"paused\" or \"archived\""));
      return null;
    }
    if (ARCHIVED.equals(status) && InFlight.HOLD.equals(value)) {
      problems.add(
          new FieldProblem(
              "in_flight",
              "an archived flow's runs in progress continue or end (hold is for a pause)"));
      return null;
    }
    return value;
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
