package com.crmflow.api.testrun;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.Scope;
import com.crmflow.api.contact.ContactRepository;
import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.CanvasService;
import com.crmflow.api.flow.FlowScopes;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.run.AutomationRun;
import com.crmflow.api.run.RunBeginnings;
import com.crmflow.api.run.RunRepository;
import com.crmflow.api.run.RunVisibility;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.node.FlowAccess;
import com.crmflow.workflow.rules.CanvasRules;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * Starts test runs: a run of the flow's latest canvas (a draft's too), marked test in its record
 * ({@link AutomationRun#test}), whose workflow input says so ({@code RunInput#testRun}): every node
 * that sends, calls, posts or writes outputs what it would do and does nothing, and delays and
 * waits do not wait. It is started by no trigger and enrolls no one; its record is kept out of the
 * run list (unless asked for), the flows' last run and run counts, and re-enrollment.
 */
@Service
class TestRuns {

  private final SequenceRepository sequences;
  private final CanvasRepository canvases;
  private final ContactRepository contacts;
  private final NodeTypes nodeTypes;
  private final RunBeginnings beginnings;
  private final RunVisibility visibility;
  private final JsonColumns json;

  TestRuns(
      SequenceRepository sequences,
      CanvasRepository canvases,
      ContactRepository contacts,
      NodeTypes nodeTypes,
      RunBeginnings beginnings,
      RunVisibility visibility,
      JsonColumns json) {
    this.sequences = sequences;
    this.canvases = canvases;
    this.contacts = contacts;
    this.nodeTypes = nodeTypes;
    this.beginnings = beginnings;
    this.visibility = visibility;
    this.json = json;
  }

  /**
   * Stores the test run and starts its workflow.
   *
   * @return the run as the caller may see it
   * @throws ApiException 404 for a flow or contact not the caller's tenant's, 400 for a node_id not
   *     in the canvas, 422 for a canvas that cannot run (no trigger, problems in what would run),
   *     403 naming the read scopes the caller lacks of what the run would show
   */
  AutomationRun start(Caller caller, UUID sequenceId, TestRunRequest request) {
    UUID tenantId = caller.tenantId();
    Sequence flow =
        sequences
            .find(tenantId, sequenceId)
            .orElseThrow(() -> ApiException.notFound("Sequence", sequenceId));
    contacts
        .find(tenantId, request.contactId())
        .orElseThrow(() -> ApiException.notFound("Contact", request.contactId()));
    if (flow.currentVersion() == 0) {
      throw ApiException.unprocessable(
          "The flow has no canvas yet: draw it before a test run.", List.of());
    }
    Canvas canvas =
        canvases.version(tenantId, sequenceId, flow.currentVersion()).orElseThrow().toCanvas();
    // where a run of the flow starts: its trigger, or a sequence's single first step (as enrolling)
    CanvasNode entry =
        nodeTypes.triggers(canvas).stream()
            .findFirst()
            .or(() -> CanvasRules.roots(canvas).stream().findFirst().flatMap(canvas::node))
            .orElse(null);
    CanvasNode start;
    Canvas tested;
    if (request.nodeId() == null || (entry != null && entry.id().equals(request.nodeId()))) {
      if (entry == null) {
        throw ApiException.unprocessable(
            "The flow has no trigger nor first step to start from.", List.of());
      }
      start = entry;
      tested = canvas;
      requireRunnable(
          "The flow cannot run", CanvasRules.completeness(canvas, flow.isAutomation(), nodeTypes));
    } else {
      start =
          canvas
              .node(request.nodeId())
              .orElseThrow(
                  () ->
                      ApiException.badRequest(
                          "node_id",
                          "is no node of the flow's latest canvas (version "
                              + flow.currentVersion()
                              + ")"));
      tested = new Canvas(List.of(start), List.<CanvasEdge>of());
      requireRunnable(
          "The node cannot run",
          CanvasRules.completeness(canvas, flow.isAutomation(), nodeTypes).stream()
              .filter(problem -> start.id().equals(problem.nodeId()))
              .toList());
    }
    requireReadScopes(caller, tested);
    Map<String, Object> payload = new LinkedHashMap<>();
    if (request.payload() != null) {
      payload.putAll(json.mapper().convertValue(request.payload(), Map.class));
    }
    payload.put("contact_id", request.contactId().toString());
    AutomationRun run =
        beginnings
            .begin(
                RunBeginnings.Beginning.of(
                        new RunRepository.NewRun(
                            UUID.randomUUID(),
                            tenantId,
                            sequenceId,
                            flow.currentVersion(),
                            entry != null ? entry.id() : start.id(),
                            start.id(),
                            payload,
                            null,
                            null),
                        RunBeginnings.Start.NOW)
                    .asTest())
            .orElseThrow();
    return visibility.shownTo(caller, run.withNodeLog(List.of()));
  }

  private static void requireRunnable(String what, List<CanvasProblem> problems) {
    if (!problems.isEmpty()) {
      List<FieldProblem> shown = problems.stream().map(CanvasService::asFieldProblem).toList();
      throw ApiException.unprocessable(
          what + ": " + problems.size() + " problem(s) in its canvas.", shown);
    }
  }

  /**
   * A test run shows what the flow reads and what it would write: the caller holds the read scope
   * of each of those record types, and of the contact it chose.
   */
  private void requireReadScopes(Caller caller, Canvas tested) {
    FlowAccess access = FlowAccess.of(tested, nodeTypes);
    Set<String> shown = new TreeSet<>(access.recordsRead());
    shown.addAll(access.recordsWritten());
    shown.add("contact");
    Set<String> missing = new TreeSet<>();
    shown.stream()
        .map(FlowScopes::readScopeOf)
        .filter(Objects::nonNull)
        .filter(scope -> !caller.has(scope))
        .map(Scope::value)
        .forEach(missing::add);
    if (!missing.isEmpty()) {
      throw ApiException.forbidden(
          "A test run shows what the flow reads and would write; this API key lacks "
              + String.join(", ", missing)
              + ".");
    }
  }
}
