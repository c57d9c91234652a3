package com.crmflow.workflow.run;

import static com.crmflow.workflow.run.InterpreterChanges.ACTIVITY_INPUTS_FIT;
import static com.crmflow.workflow.run.InterpreterChanges.ANSWERS_PER_TASK;
import static com.crmflow.workflow.run.InterpreterChanges.FAILED_RUN_FAILS_WORKFLOW;
import static com.crmflow.workflow.run.InterpreterChanges.FAILURE_SETTLES_BRANCHES;
import static com.crmflow.workflow.run.InterpreterChanges.GOAL;
import static com.crmflow.workflow.run.InterpreterChanges.GOAL_ENDS_MOVE;
import static com.crmflow.workflow.run.InterpreterChanges.HELD_MOVE;
import static com.crmflow.workflow.run.InterpreterChanges.INPUTS_PER_TASK;
import static com.crmflow.workflow.run.InterpreterChanges.MOVED_WAITS_GO_ON;
import static com.crmflow.workflow.run.InterpreterChanges.NODE_INPUT_CONTACT;
import static com.crmflow.workflow.run.InterpreterChanges.RECORDINGS_PER_TASK;
import static com.crmflow.workflow.run.InterpreterChanges.RUN_CONTROL;
import static com.crmflow.workflow.run.InterpreterChanges.RUN_MOVE;
import static com.crmflow.workflow.run.InterpreterChanges.STATUS_SEARCH_ATTRIBUTE;

import com.crmflow.workflow.CrmSearchAttributes;
import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunControl;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunMove;
import com.crmflow.workflow.contract.RunMoveResult;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.contract.RunResume;
import com.crmflow.workflow.history.HistoryPayloads;
import com.crmflow.workflow.history.WorkflowTaskBudget;
import com.crmflow.workflow.node.FlowGoal;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeCut;
import com.crmflow.workflow.node.NodeEnded;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeFailure;
import com.crmflow.workflow.node.NodeMoved;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.node.NodeSkipped;
import com.crmflow.workflow.node.builtin.BuiltInNodes;
import com.crmflow.workflow.template.TemplateResolver;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The canvas interpreter. It walks the graph from the start node; parallel branches run
 * concurrently, each in its own workflow thread (see {@link #runFrom}). A node with several
 * incoming edges runs once, when every incoming edge is resolved: taken by a node that ran, or
 * skipped because a condition chose the other branch (skipping propagates). It runs if at least one
 * incoming edge was taken; otherwise it is skipped too.
 *
 * <p>The interpreter only walks the graph: order, joins, failure and cancel. What a node does is
 * its type's {@link NodeExecutor} (a delay is a durable timer; condition and data_transform are
 * evaluated in workflow code; every side effect is an activity named after its node type), which
 * reaches the run through {@link NodeRun}. A failing node fails the run unless its config has
 * {@code continueOnFailure: true}: then it is logged as failed, its output is {@code {error}}, and
 * the flow goes on along its edges.
 *
 * <p>The interpreter hands the node log's recording to {@link NodeLogRecording} and the version
 * markers of its changes to {@link InterpreterChanges}.
 *
 * <p>Where the recorder and http_request run is fixed per run by {@link RunInput#localActivities}:
 * local activities in the worker's own process (embedded defaults), or activities on the crm and
 * integrations queues (distributed).
 */
public class AutomationRunWorkflowImpl implements AutomationRunWorkflow, NodeRun {

  private final NodeCatalog catalog;
  private RunInput input;
  private InterpreterChanges changes;
  private NodeLogRecording recording;
  private WorkflowTaskBudget taskBudget;
  private Canvas canvas;
  private final Map<String, Object> scope = new LinkedHashMap<>();
  private final Map<String, Integer> executedByType = new HashMap<>();
  private final Map<String, Boolean> edgeTaken = new HashMap<>();
  private final Set<String> settled = new HashSet<>();

  /** The events routed to each watching node (by node id), each once, in order of arrival. */
  private final Map<String, List<RecordEvent>> recordEvents = new HashMap<>();

  private final Set<String> recordEventsTaken = new HashSet<>();

  /** The generation of the last {@link RunControl} taken: an older one is passed over. */
  private long controlGeneration;

  /** Held by its flow's pause: no node starts until released (or ended). */
  private boolean held;

  /** Why the run holds ({@code flow paused}). */
  private String heldFor;

  /** Why the run was asked to end, or null. */
  private String endAsked;

  /** The run took the ask to end ({@value InterpreterChanges#RUN_CONTROL}): it ends cancelled. */
  private boolean endTaken;

  /**
   * The run took its goal ({@value InterpreterChanges#GOAL}): no node starts, it ends completed.
   */
  private boolean goalTaken;

  /** The run's contact met its flow's goal: api-server routed an event to the goal's watcher. */
  private boolean goalSignalled;

  /**
   * The node where the run took its goal ({@value InterpreterChanges#GOAL}), or null: the run ends
   * completed, its exit the goal at that node.
   */
  private String goalMetAt;

  /** The seq of the log entry of each node the run held before, which the node's run takes on. */
  private final Map<String, Integer> heldAt = new HashMap<>();

  /** Where each node's log entry stands while it runs: its seq, start and variables then. */
  private record Started(int seq, String startedAt, Map<String, Object> atStart) {}

  private final Map<String, Started> started = new HashMap<>();

  /**
   * The nodes the run ran or passed with an outcome (a resumed run's logged ones), by the id of the
   * version it ran them in: a move that would run one again is refused.
   */
  private final Set<String> passed = new HashSet<>();

  /** Its moves to other versions of its flow (see {@link #move}). */
  private final RunMoves moves = new RunMoves();

  private int logSeq;
  private int active;
  private String failure;
  private boolean branchesSettle;

  /** An interpreter of the built-in node types ({@link BuiltInNodes#catalog()}). */
  public AutomationRunWorkflowImpl() {
    this(BuiltInNodes.catalog());
  }

  /**
   * An interpreter of the node types of this catalog. The worker passes one catalog, fixed when it
   * starts, to every run it hosts: what a node of a type does cannot change during a run.
   */
  public AutomationRunWorkflowImpl(NodeCatalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public RunResult run(RunInput input) {
    this.input = input;
    this.changes = new InterpreterChanges(input);
    this.taskBudget =
        new WorkflowTaskBudget(
            () -> since(ANSWERS_PER_TASK),
            () -> since(INPUTS_PER_TASK),
            () -> since(RECORDINGS_PER_TASK));
    // the workflow task's span, active on this (the run's first) thread only: its entries name it
    SpanContext task = Span.current().getSpanContext();
    this.recording =
        new NodeLogRecording(input, changes, taskBudget, task.isValid() ? task.getSpanId() : null);
    this.canvas = input.canvas();
    scope.put("trigger", input.triggerPayload() == null ? Map.of() : input.triggerPayload());
    if (input.contact() != null) {
      scope.put("contact", input.contact());
    }
    if (input.priorOutputs() != null) {
      scope.putAll(input.priorOutputs());
      input.priorOutputs().keySet().forEach(this::countPriorOutput);
    }
    if (input.rerunOrdinals() != null) {
      // later nodes are numbered after the nodes run again, as in the failed run
      input
          .rerunOrdinals()
          .forEach(
              (nodeId, ordinal) ->
                  canvas
                      .node(nodeId)
                      .ifPresent(n -> executedByType.merge(n.type(), ordinal, Math::max)));
    }
    if (input.completedNodeIds() != null && !input.completedNodeIds().isEmpty()) {
      resumeAfter(input.completedNodeIds());
    }
    if (input.resume() != null) {
      logSeq = input.resume().lastSeq();
    }
    try {
      List<String> starts = input.startNodeIds();
      settled.addAll(starts);
      if (input.runsInlineChains()) {
        starts.subList(1, starts.size()).forEach(this::startThread);
        active++;
        try {
          runFrom(starts.get(0));
        } finally {
          active--;
        }
        branchEnded();
      } else {
        starts.forEach(this::startThread);
      }
      Workflow.await(() -> (active == 0 && !moves.asked()) || (failure != null && !branchesSettle));
    } catch (CanceledFailure cancelled) {
      Workflow.newDetachedCancellationScope(() -> end(RunResult.CANCELLED, null)).run();
      throw cancelled;
    }
    RunResult result =
        failure != null
            ? new RunResult(RunResult.FAILED, failure)
            : endTaken
                ? new RunResult(RunResult.CANCELLED, endAsked)
                : new RunResult(RunResult.COMPLETED, null);
    end(result.status(), result.error(), exit(result));
    if (failure != null && since(FAILED_RUN_FAILS_WORKFLOW)) {
      // recorded first: the service's run and node log are whole before Temporal closes the run
      throw ApplicationFailure.newNonRetryableFailure(failure, RunResult.FAILURE_TYPE);
    }
    return result;
  }

  /**
   * Fails the node when its activity's input is too large to pass through history, and waits for
   * the next workflow task when the current one has no room left for it. The versions are asked
   * only then, so most runs record no marker.
   */
  @Override
  public void requireFitsInHistory(String nodeType, Object... arguments) {
    long bytes = 0;
    for (Object argument : arguments) {
      bytes += HistoryPayloads.bytes(argument);
    }
    if (bytes > HistoryPayloads.LIMIT_BYTES && since(ACTIVITY_INPUTS_FIT)) {
      throw new NodeFailure(
          "the "
              + nodeType
              + " is "
              + bytes
              + " bytes of JSON, over the "
              + HistoryPayloads.LIMIT_BYTES
              + " bytes an activity's input may carry through Temporal");
    }
    taskBudget.schedule(bytes);
  }

  /** Whether the run takes the path of version 1 of the change (see {@link InterpreterChanges}). */
  @Override
  public boolean since(String changeId) {
    return changes.since(changeId);
  }

  private void end(String status, String error) {
    end(status, error, null);
  }

  private void end(String status, String error, Map<String, Object> exit) {
    if (since(STATUS_SEARCH_ATTRIBUTE)) {
      Workflow.upsertTypedSearchAttributes(CrmSearchAttributes.STATUS.valueSet(status));
    }
    recording.end(status, error, exit);
  }

  /** Why a completed run ended before its last node: {reason: goal, at_node}; else null. */
  private Map<String, Object> exit(RunResult result) {
    return goalMetAt != null && RunResult.COMPLETED.equals(result.status())
        ? Map.of("reason", "goal", "at_node", goalMetAt)
        : null;
  }

  /**
   * A retry starts at the failed node (and at the other nodes the failure left unrun, see {@link
   * RunInput#alsoStartAt}): edges from outside their part of the graph count as taken when their
   * source completed in the failed run, and as not taken otherwise.
   */
  private void resumeAfter(List<String> completedNodeIds) {
    Set<String> ahead =
        com.crmflow.workflow.rules.CanvasRules.reachableFrom(canvas, input.startNodeIds());
    for (CanvasEdge edge : canvas.edges()) {
      if (!ahead.contains(edge.source())) {
        edgeTaken.put(edge.id(), completedNodeIds.contains(edge.source()));
      }
    }
    canvas.nodes().stream()
        .map(CanvasNode::id)
        .filter(id -> !ahead.contains(id))
        .forEach(settled::add);
  }

  private void countPriorOutput(String variable) {
    int underscore = variable.lastIndexOf('_');
    if (underscore > 0 && variable.substring(underscore + 1).matches("\\d+")) {
      executedByType.merge(
          variable.substring(0, underscore),
          Integer.parseInt(variable.substring(underscore + 1)),
          Math::max);
    }
  }

  /**
   * Runs the node, then the nodes it makes ready, each in a workflow thread of its own; with {@link
   * RunInput#inlineChains} the first of them runs on in this thread, which saves the hand-over
   * between threads (a good part of a short run's CPU). Both are deterministic, but they start
   * parallel branches in a different order (and so number the log and the {@code type_n} variables
   * differently): the choice is made per run, at its start.
   */
  private void runFrom(String nodeId) {
    String next = nodeId;
    while (next != null) {
      if (!mayStart(node(next))) {
        return;
      }
      List<String> ready = new ArrayList<>();
      execute(node(next), ready);
      boolean inline = input.runsInlineChains();
      for (int i = inline ? 1 : 0; i < ready.size(); i++) {
        startThread(ready.get(i));
      }
      next = inline && !ready.isEmpty() ? ready.get(0) : null;
    }
  }

  private void startThread(String nodeId) {
    active++;
    Async.procedure(
        () -> {
          try {
            runFrom(nodeId);
          } finally {
            active--;
          }
          branchEnded();
        });
  }

  /**
   * A branch ended: while others go on, its entries are written at once, not with the run's end.
   */
  private void branchEnded() {
    recording.branchEnded(active);
  }

  private CanvasNode node(String nodeId) {
    return canvas.node(nodeId).orElseThrow(() -> new IllegalStateException("no node " + nodeId));
  }

  /**
   * Where a waiting branch stopped for a move: its entry, when its wait began and its deadline. A
   * wait that goes on from before (moved, resumed or retried: {@code waiting}, or the retry's wake
   * time) keeps the start and the deadline it logged then ({@value
   * InterpreterChanges#MOVED_WAITS_GO_ON}); without the change a branch gives this node's start and
   * the deadline a node of this id showed, if any.
   */
  private RunMoves.Stopped stoppedForMove(
      CanvasNode node, Started waited, RunResume.WaitingDelay waiting) {
    String deadline = moves.deadline(node);
    RunMoves.Stopped asBefore =
        new RunMoves.Stopped(node, waited.seq(), waited.startedAt(), deadline);
    String logged = input.loggedWakeUp(node);
    String began =
        waiting != null && waiting.startedAt() != null ? waiting.startedAt() : waited.startedAt();
    String until = logged != null ? logged : deadline;
    if (began.equals(waited.startedAt()) && Objects.equals(until, deadline)) {
      return asBefore;
    }
    return since(MOVED_WAITS_GO_ON)
        ? new RunMoves.Stopped(node, waited.seq(), began, until)
        : asBefore;
  }

  /** Runs the node, logs it and adds the nodes it makes ready to {@code ready}. */
  private void execute(CanvasNode node, List<String> ready) {
    String type = node.type();
    Integer rerun = input.rerunOrdinals() == null ? null : input.rerunOrdinals().get(node.id());
    int ordinal = rerun != null ? rerun : executedByType.merge(type, 1, Integer::sum);
    // its held entry, if it held: taken on by its run, or left to the outcome a resumed run replays
    Integer heldSeq = heldAt.remove(node.id());
    RunResume.NodeOutcome before =
        input.resume() == null ? null : input.resume().done().get(node.id());
    if (before != null) {
      if (!RunResult.SKIPPED.equals(before.status())) {
        passed.add(node.id());
      }
      replay(node, ordinal, before, ready);
      return;
    }
    RunResume.WaitingDelay waiting = input.waitingDelay(node);
    int seq = waiting != null ? waiting.seq() : heldSeq != null ? heldSeq : ++logSeq;
    String startedAt = now();
    Map<String, Object> atStart = NodeInput.variablesAtStart(scope);
    started.put(node.id(), new Started(seq, startedAt, atStart));
    passed.add(node.id());
    Map<String, Object> output;
    try {
      NodeExecutor executor = executor(node);
      Map<String, Object> running = executor.runningOutput(node, this);
      moves.until(node, running);
      if (running != null) {
        recording.record(
            new NodeLogEntry(
                seq, node.id(), type, RunResult.RUNNING, startedAt, null, running, null),
            inputOf(node, atStart));
      }
      if (executor.waits()) {
        recording.flush();
      }
      output = run(node, executor);
    } catch (NodeMoved moved) {
      moves.stopped(stoppedForMove(node, started.get(node.id()), waiting));
      return;
    } catch (NodeSkipped skipped) {
      Map<String, Object> reason = skipped.output();
      scope.put(type + "_" + ordinal, reason);
      recording.record(
          new NodeLogEntry(seq, node.id(), type, RunResult.SKIPPED, startedAt, now(), reason, null),
          inputOf(node, atStart));
      if (skipped instanceof NodeEnded && goalMetAt == null && goalTaken) {
        goalMetAt = node.id();
      }
      if (!(skipped instanceof NodeCut) && !(skipped instanceof NodeEnded)) {
        // a node cut short by the failure is not passed: a retry runs it and what follows it
        follow(node, edge -> true, ready);
      }
      return;
    } catch (NodeFailure | ActivityFailure | ApplicationFailure e) {
      String message = message(e);
      recording.record(
          new NodeLogEntry(seq, node.id(), type, RunResult.FAILED, startedAt, now(), null, message),
          inputOf(node, atStart));
      if (Boolean.TRUE.equals(node.config("continueOnFailure"))) {
        scope.put(type + "_" + ordinal, Map.of("error", message));
        follow(node, edge -> true, ready);
      } else {
        fail("node " + node.id() + " (" + type + ") failed: " + message);
      }
      return;
    }
    scope.put(type + "_" + ordinal, output);
    boolean loggedOnAcceptance = seq == 1 && catalog.isTrigger(type) && input.startLogged();
    if (!loggedOnAcceptance) {
      recording.record(
          new NodeLogEntry(
              seq,
              node.id(),
              type,
              RunResult.COMPLETED,
              startedAt,
              now(),
              loggedOutput(node, output),
              null),
          inputOf(node, atStart));
    }
    followCompleted(node, output, ready);
  }

  /**
   * What the node ran with ({@link NodeInput}) for its log entry, or null when entries carry no
   * input (a trigger's, or a run's without {@value InterpreterChanges#NODE_INPUT}). A node other
   * than an email is shown with the contact it started with; a run without {@value
   * #NODE_INPUT_CONTACT} shows the contact as it is now, which differs only when an email beside
   * the node read it afresh while the node ran, and is asked only then and only where the entries
   * are in history.
   */
  private Map<String, Object> inputOf(CanvasNode node, Map<String, Object> atStart) {
    if (catalog.isTrigger(node.type()) || !recording.logsInput()) {
      return null;
    }
    boolean contactAsStarted =
        !NodeInput.contactChangedBeside(catalog, node, atStart, scope)
            || !recording.recordsThroughHistory()
            || since(NODE_INPUT_CONTACT);
    return NodeInput.of(catalog, node, atStart, scope, contactAsStarted);
  }

  /**
   * The run fails with the first failure. With {@value #FAILURE_SETTLES_BRANCHES} the failed node's
   * entry is written at once, since the run may then wait for nodes in flight elsewhere.
   */
  private void fail(String reason) {
    if (failure != null) {
      return;
    }
    branchesSettle = since(FAILURE_SETTLES_BRANCHES);
    failure = reason;
    if (branchesSettle) {
      recording.flush();
    }
  }

  /** A completed node follows the edges it takes (a condition those of its branch). */
  private void followCompleted(CanvasNode node, Map<String, Object> output, List<String> ready) {
    follow(node, executor(node).edgesTaken(output), ready);
  }

  /**
   * A node finished before the workflow was lost ({@link RunInput#resume}): its logged outcome
   * takes effect as when it ran (variables, edges, a failure), without running it or logging it
   * again.
   */
  private void replay(
      CanvasNode node, int ordinal, RunResume.NodeOutcome before, List<String> ready) {
    String variable = node.type() + "_" + ordinal;
    switch (before.status()) {
      case RunResult.FAILED -> {
        if (Boolean.TRUE.equals(node.config("continueOnFailure"))) {
          scope.put(variable, Map.of("error", String.valueOf(before.error())));
          follow(node, edge -> true, ready);
        } else {
          fail("node " + node.id() + " (" + node.type() + ") failed: " + before.error());
        }
      }
      case RunResult.SKIPPED -> {
        if (before.output() != null && leftForFailure(before.output().get("skipped"))) {
          return; // logged after the failure, which its own entry brings back: nothing follows it
        }
        scope.put(variable, before.output() == null ? Map.of() : before.output());
        follow(node, edge -> true, ready);
      }
      default -> {
        Map<String, Object> output = before.output() == null ? Map.of() : before.output();
        scope.put(variable, output);
        followCompleted(node, output, ready);
      }
    }
  }

  private static boolean leftForFailure(Object skippedReason) {
    return RunResult.CUT_BY_FAILURE.equals(skippedReason)
        || RunResult.NOT_STARTED_FOR_FAILURE.equals(skippedReason);
  }

  /** The executor of the node's type; an unknown type fails the node. */
  private NodeExecutor executor(CanvasNode node) {
    return catalog
        .find(node.type())
        .orElseThrow(() -> new NodeFailure("unknown node type " + node.type()));
  }

  /** Runs the node and returns its output. */
  private Map<String, Object> run(CanvasNode node, NodeExecutor executor) {
    if (executor.sideEffect() && !changes.sideEffectNodesBuilt()) {
      throw new NodeFailure(
          "node type " + node.type() + " is not supported by this version of the engine");
    }
    // a test run shows what each node that acts outside the run would do (NodeExecutor#wouldDo)
    if (input.runsAsTest()) {
      return executor.wouldDo(node, this);
    }
    moves.waits(node);
    try {
      return executor.execute(node, this);
    } finally {
      moves.doneWaiting(node);
    }
  }

  /**
   * A signal: kept for the node it is routed to, once per event (api-server delivers at least once,
   * and a resumed run's watch answers again with what was routed before). The run id is compared
   * when a node reads its events ({@link #recordEvents}): a signal may come before the run's input.
   */
  @Override
  public void recordEvent(RecordEvent event) {
    if (event == null || event.watcher() == null || event.eventId() == null) {
      return;
    }
    event = moves.routed(event);
    if (FlowGoal.WATCHER.equals(event.watcher())) {
      goalSignalled = true;
    }
    if (recordEventsTaken.add(event.watcher() + "\n" + event.eventId())) {
      recordEvents.computeIfAbsent(event.watcher(), watcher -> new ArrayList<>()).add(event);
    }
  }

  /**
   * A signal: the flow's pause, archive or resume asks the run to hold, go on or end. Kept here;
   * the walk acts on it at its next safe point ({@link #mayStart}, {@link #endWaiting}).
   */
  @Override
  public void control(RunControl control) {
    if (control == null || control.action() == null || control.generation() <= controlGeneration) {
      return;
    }
    controlGeneration = control.generation();
    switch (control.action()) {
      case RunControl.HOLD -> {
        held = true;
        heldFor = control.reason() == null ? "flow paused" : control.reason();
      }
      case RunControl.RELEASE -> held = false;
      case RunControl.END -> {
        if (endAsked == null) {
          endAsked = control.reason() == null ? "flow paused" : control.reason();
        }
      }
      default -> {
        // an action this code does not know: passed over
      }
    }
  }

  /**
   * Before a node starts: a held run holds here (its entry shows the node held, with the reason)
   * until released, ended or moved; a run asked to end ends here, the node logged skipped with the
   * reason. A branch moved while it held ({@value InterpreterChanges#HELD_MOVE}) holds on at the
   * node it goes on at, its held entry carried there by the move. The version is asked only when an
   * ask has come.
   */
  private boolean mayStart(CanvasNode node) {
    if (moves.asked()) {
      // the run moves: this branch goes on from this node, in the version it moves to
      moves.stopped(new RunMoves.Stopped(node, null, null, null));
      return false;
    }
    if (held && endAsked == null && since(RUN_CONTROL) && !goesOnWaiting(node)) {
      Integer seq = heldAt.get(node.id());
      if (seq == null) {
        seq = ++logSeq;
        heldAt.put(node.id(), seq);
        recording.record(heldEntry(seq, node));
        recording.flush();
      }
      Workflow.await(() -> !held || endAsked != null || goalSignalled || moves.asked());
      if (moves.asked()) {
        // the run moves while this branch holds: it holds on in the version it moves to
        moves.stopped(RunMoves.Stopped.heldBefore(node, seq));
        return false;
      }
    }
    if (endAsked != null && since(RUN_CONTROL)) {
      endTaken = true;
      skippedBefore(node, endAsked);
      return false;
    }
    return !goalMetBefore(node);
  }

  /**
   * Whether the node is a wait the branch goes on in (moved, or resumed, while it waited): not a
   * node that starts, so a held run waits on in it and holds before the node after it ({@value
   * InterpreterChanges#MOVED_WAITS_GO_ON}). Without the change the run holds before it with an
   * entry of its own.
   */
  private boolean goesOnWaiting(CanvasNode node) {
    return input.waitingDelay(node) != null && since(MOVED_WAITS_GO_ON);
  }

  /** The running entry of a node the run holds before, with why it holds. */
  private NodeLogEntry heldEntry(int seq, CanvasNode node) {
    return new NodeLogEntry(
        seq, node.id(), node.type(), RunResult.RUNNING, now(), null, Map.of("held", heldFor), null);
  }

  /** The node the run ends before, logged skipped with the reason (on its held entry, if any). */
  private void skippedBefore(CanvasNode node, String reason) {
    Integer heldSeq = heldAt.remove(node.id());
    String at = now();
    recording.record(
        new NodeLogEntry(
            heldSeq != null ? heldSeq : ++logSeq,
            node.id(),
            node.type(),
            RunResult.SKIPPED,
            at,
            at,
            Map.of("skipped", reason),
            null));
  }

  /**
   * Before a node starts, for a run whose flow has a goal or whose contact met it: the goal ends
   * the run here, the node logged skipped ({@value FlowGoal#MET}), when api-server has routed the
   * contact's change to the run or the contact meets the goal now ({@link FlowGoal#holdsNow}, one
   * read of the contact per node, a local activity on the embedded defaults). A trigger is not
   * checked: the run's record was judged when its change was routed. Runs without a goal ask
   * nothing and record no marker.
   */
  private boolean goalMetBefore(CanvasNode node) {
    boolean hasGoal =
        canvas.goal() != null && !input.runsAsTest() && !catalog.isTrigger(node.type());
    if (!(goalSignalled || goalTaken || hasGoal) || !since(GOAL)) {
      return false;
    }
    if (!goalSignalled && !goalTaken && !FlowGoal.holdsNow(node, this, canvas.goal())) {
      return false;
    }
    goalTaken = true;
    if (goalMetAt == null) {
      goalMetAt = node.id();
    }
    skippedBefore(node, FlowGoal.MET);
    return true;
  }

  // ------------------------------------------------------------- what nodes use of the run

  @Override
  public boolean endAsked() {
    return endAsked != null || goalSignalled || goalTaken || moves.asked();
  }

  @Override
  public void endWaiting() {
    if (endAsked != null && since(RUN_CONTROL)) {
      endTaken = true;
      throw new NodeEnded(endAsked);
    }
    if ((goalSignalled || goalTaken) && since(GOAL)) {
      goalTaken = true;
      throw new NodeEnded(FlowGoal.MET);
    }
    if (moves.asked()) {
      throw new NodeMoved();
    }
  }

  @Override
  public List<RecordEvent> recordEvents(CanvasNode node) {
    return recordEvents.getOrDefault(node.id(), List.of()).stream()
        .filter(event -> input.runId().equals(event.runId()))
        .toList();
  }

  @Override
  public void routed(CanvasNode node, List<RecordEvent> events) {
    if (events == null || events.isEmpty()) {
      return;
    }
    events.forEach(this::recordEvent);
    // routed before this execution had them: in the outbox's order with any signalled since
    List<RecordEvent> mine = recordEvents.get(node.id());
    if (mine != null) {
      mine.sort(Comparator.comparingLong(RecordEvent::seq));
    }
  }

  @Override
  public RunInput input() {
    return input;
  }

  @Override
  public Map<String, Object> scope() {
    return scope;
  }

  @Override
  public boolean failed() {
    return failure != null;
  }

  @Override
  public boolean branchesSettle() {
    return branchesSettle;
  }

  @Override
  public boolean reserveAnswer(long bytes) {
    return taskBudget.reserve(bytes);
  }

  @Override
  public void answerLanded(long reserved, long carried) {
    taskBudget.landed(reserved, carried);
  }

  @Override
  public void activitySpan(CanvasNode node, String spanId) {
    recording.activitySpan(node.id(), spanId);
  }

  @Override
  public void running(CanvasNode node, Map<String, Object> output) {
    moves.until(node, output);
    Started start = started.get(node.id());
    recording.record(
        new NodeLogEntry(
            start.seq(),
            node.id(),
            node.type(),
            RunResult.RUNNING,
            start.startedAt(),
            null,
            output,
            null),
        inputOf(node, start.atStart()));
    recording.flush();
  }

  @Override
  public String contactId() {
    Object fromContact = input.contact() == null ? null : input.contact().get("contact_id");
    Object id =
        fromContact != null ? fromContact : TemplateResolver.lookup(scope, "trigger.contact_id");
    return id instanceof String s && !s.isBlank() ? s : null;
  }

  /**
   * Marks the node's outgoing edges taken or skipped, then starts (or skips) every target whose
   * incoming edges are all resolved.
   */
  private void follow(CanvasNode node, Predicate<CanvasEdge> taken, List<String> ready) {
    List<CanvasEdge> outgoing = canvas.outgoing(node.id());
    for (CanvasEdge edge : outgoing) {
      edgeTaken.put(edge.id(), taken.test(edge));
    }
    for (CanvasEdge edge : outgoing) {
      resolve(edge.target(), ready);
    }
  }

  private void resolve(String nodeId, List<String> ready) {
    if (settled.contains(nodeId) || (failure != null && !branchesSettle)) {
      return;
    }
    List<CanvasEdge> incoming = canvas.incoming(nodeId);
    if (incoming.stream().anyMatch(e -> !edgeTaken.containsKey(e.id()))) {
      return; // another branch into this node has not arrived yet
    }
    settled.add(nodeId);
    boolean taken = incoming.stream().anyMatch(e -> edgeTaken.get(e.id()));
    if (taken && failure != null) {
      notStarted(node(nodeId)); // only while the branches settle: see the check above
    } else if (taken) {
      ready.add(nodeId);
    } else {
      // every way in was a branch not taken: skip, and let the skip flow on
      canvas.node(nodeId).ifPresent(skipped -> follow(skipped, edge -> false, ready));
    }
  }

  /** Its turn came after the run failed: logged, so that operators and a retry see it unrun. */
  private void notStarted(CanvasNode node) {
    String at = now();
    recording.record(
        new NodeLogEntry(
            ++logSeq,
            node.id(),
            node.type(),
            RunResult.SKIPPED,
            at,
            at,
            Map.of("skipped", RunResult.NOT_STARTED_FOR_FAILURE),
            null));
  }

  /** The trigger's output is the payload, already stored on the run: the log does not copy it. */
  private Map<String, Object> loggedOutput(CanvasNode node, Map<String, Object> output) {
    return catalog.isTrigger(node.type()) ? Map.of() : output;
  }

  private static String message(Exception e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause instanceof TemporalFailure) {
      cause = cause.getCause();
    }
    String message =
        cause instanceof ApplicationFailure app ? app.getOriginalMessage() : cause.getMessage();
    return message == null ? cause.getClass().getSimpleName() : message;
  }

  // ------------------------------------------------------------- moves to another version

  /**
   * Refuses the move, saying why, unless every live branch waits at a safe point ({@link
   * RunMoves#refusal}). Runs no workflow code that history records.
   */
  @Override
  public void validateMove(RunMove move) {
    String ending =
        failure != null
            ? "it failed"
            : endAsked != null
                ? endAsked
                : goalSignalled || goalTaken ? FlowGoal.MET : active == 0 ? "done" : null;
    Set<String> holding = held ? heldAt.keySet() : Set.of();
    String refusal = moves.refusal(move, input, canvas, active, ending, holding, passed);
    if (refusal != null) {
      throw new IllegalArgumentException(refusal);
    }
  }

  /**
   * Moves the run ({@value InterpreterChanges#RUN_MOVE}): its waiting branches wake and stop
   * ({@link NodeMoved}, a branch that woke for its own reason stops before its next node), the move
   * is recorded with a log entry that says it, and each branch goes on from its node in the target
   * version, a waiting one with its entry and deadline, a held one ({@value
   * InterpreterChanges#HELD_MOVE}) holding on before its node there with its held entry. A run that
   * cannot place a branch (it woke and went on to a node the target has not) goes on where it was,
   * in its version.
   */
  @Override
  public RunMoveResult move(RunMove move) {
    int from = input.canvasVersion();
    if (move.toVersion() == from) {
      return new RunMoveResult(RunMoveResult.ALREADY, from, from, List.of(), null);
    }
    since(RUN_MOVE);
    if (held && !heldAt.isEmpty() && !since(HELD_MOVE)) {
      return new RunMoveResult(
          RunMoveResult.NOT_MOVED,
          from,
          from,
          List.of(),
          "the run holds before node " + heldAt.keySet().iterator().next());
    }
    moves.ask(move);
    Workflow.await(() -> active == 0);
    if (failure != null || endTaken) {
      moves.done();
      return new RunMoveResult(
          RunMoveResult.NOT_MOVED, from, from, List.of(), "the run ended while it moved");
    }
    if (goalTaken && since(GOAL_ENDS_MOVE)) {
      moves.done();
      return new RunMoveResult(
          RunMoveResult.NOT_MOVED, from, from, List.of(), "the run met its goal while it moved");
    }
    String unplaced = moves.unplacedBranch(move);
    RunMove target =
        unplaced == null
            ? move
            : new RunMove(move.moveId(), from, canvas, Map.of(), false, move.keyId());
    List<RunMoveResult.MovedNode> placed = moves.placed(target);
    // a held branch's entry goes with it to its node in the target version, where it holds on
    List<RunMoveResult.MovedNode> waited = new ArrayList<>();
    Map<String, Integer> holdsThere = new LinkedHashMap<>();
    for (RunMoveResult.MovedNode node : placed) {
      Integer heldSeq = heldAt.remove(node.fromNode());
      if (heldSeq != null) {
        holdsThere.put(node.toNode(), heldSeq);
      } else {
        waited.add(node);
      }
    }
    heldAt.putAll(holdsThere);
    if (unplaced == null) {
      String at = now();
      RunMoveResult moved =
          new RunMoveResult(RunMoveResult.MOVED, from, move.toVersion(), placed, null);
      // handed in with the move: the service takes the held node's type in the target from it
      holdsThere.forEach(
          (toNode, seq) ->
              recording.record(heldEntry(seq, target.canvas().node(toNode).orElseThrow())));
      recording.moved(RunMoves.entry(++logSeq, at, from, move, placed), moved);
    }
    for (RunMoveResult.MovedNode node : waited) {
      if (NodeType.WAIT_UNTIL.value().equals(node(node.fromNode()).type())) {
        moves.watcherMoved(node.fromNode(), node.toNode(), recordEvents);
      }
      if (node.seq() != null) {
        // the node's variable keeps its number: the node there takes on its entry
        executedByType.merge(node(node.fromNode()).type(), -1, Integer::sum);
      }
    }
    List<String> starts = placed.stream().map(RunMoveResult.MovedNode::toNode).distinct().toList();
    RunMoves.carryOver(canvas, target.canvas(), target, edgeTaken, settled, starts);
    input =
        RunMoves.inputIn(
            input, target.toVersion(), target.canvas(), waited, moves.waitsBegan(), logSeq);
    canvas = target.canvas();
    starts.forEach(this::startThread);
    moves.done();
    return unplaced == null
        ? new RunMoveResult(RunMoveResult.MOVED, from, move.toVersion(), placed, null)
        : new RunMoveResult(RunMoveResult.NOT_MOVED, from, from, placed, unplaced);
  }

  private static String now() {
    return NodeLogEntry.timestamp(Instant.ofEpochMilli(Workflow.currentTimeMillis()));
  }
}
