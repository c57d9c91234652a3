package com.crmflow.workflow.run;

import com.crmflow.workflow.CrmSearchAttributes;
import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.NodeCut;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeExecutors;
import com.crmflow.workflow.node.NodeFailure;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.node.NodeSkipped;
import com.crmflow.workflow.template.TemplateResolver;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.temporal.activity.ActivityOptions;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The canvas interpreter. It walks the graph from the start node; parallel branches run
 * concurrently, each in its own workflow thread (see {@link #runFrom}). A node with several
 * incoming edges runs once, when every incoming edge is resolved: taken by a node that ran, or
 * skipped because a condition chose the other branch (skipping propagates). It runs if at least one
 * incoming edge was taken; otherwise it is skipped too.
 *
 * <p>The interpreter only walks the graph: order, joins, failure, cancel and the node log. What a
 * node does is its type's {@link NodeExecutor} (a delay is a durable timer; condition and
 * data_transform are evaluated in workflow code; every side effect is an activity named after its
 * node type), which reaches the run through {@link NodeRun}. A failing node fails the run unless
 * its config has {@code continueOnFailure: true}: then it is logged as failed, its output is {@code
 * {error}}, and the flow goes on along its edges.
 *
 * <p>Recording: the node log is buffered and written in batches, in parallel with whatever the run
 * waits on next (a timer or an activity), and the last batch travels with the end of the run. A run
 * that waits therefore shows its partial log, while a short run costs two recording activities
 * instead of one per node. A run whose history has no {@value #BATCHED_RECORDING} marker records
 * each entry on its own.
 *
 * <p>Where the recorder and http_request run is fixed per run by {@link RunInput#localActivities}:
 * local activities in the worker's own process (embedded defaults), or activities on the crm and
 * integrations queues (distributed).
 */
public class AutomationRunWorkflowImpl implements AutomationRunWorkflow, NodeRun {

  private static final ActivityOptions RECORDING =
      ActivityOptions.newBuilder()
          .setTaskQueue(TaskQueues.CRM)
          .setStartToCloseTimeout(Duration.ofSeconds(10))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofMillis(200))
                  .setMaximumInterval(Duration.ofSeconds(30))
                  .build())
          .build();

  static final String BATCHED_RECORDING = "batched-recording";

  /** Before this version email, chat_message, crm_update and create_record failed the run. */
  static final String SIDE_EFFECT_NODES = "side-effect-nodes";

  /**
   * Before this version a failure ended the run at once: a node in flight in another branch (an
   * email, a call) was abandoned with no log entry though it may have acted, and the nodes whose
   * turn came after the failure were not logged at all, so a retry could not find them. Now the
   * branches settle first: nodes in flight finish and are logged as they ended, no new node starts,
   * and each node whose turn comes is logged skipped ({@link RunResult#NOT_STARTED_FOR_FAILURE}).
   */
  static final String FAILURE_SETTLES_BRANCHES = "failure-settles-branches";

  /**
   * Before this version the entries of a branch that ended while another branch waited (a call
   * beside a day's delay) stayed in the buffer until the run ended: a running run did not show
   * them. Now a branch that ends while others go on writes them.
   */
  static final String FLUSH_ENDED_BRANCHES = "flush-ended-branches";

  /**
   * Before this version a recorder activity carried whatever entries were buffered, whatever their
   * size: on a real server, a batch over its 2 MB payload limit failed the workflow task again and
   * again and the run never moved. Now (recording through the crm queue) batches stay under {@link
   * HistoryPayloads#BATCH_LIMIT_BYTES} and an output over {@link HistoryPayloads#LIMIT_BYTES} is
   * logged as a note of its size. A run whose entries are small records no marker.
   */
  static final String SIZED_RECORDING = "sized-recording";

  /**
   * Before this version a local http_request started whatever its task's markers already held: a
   * chain of large answers took one task's completion over 4 MB and the server terminated the run.
   * Now a call that finds no room in its task goes through the integrations queue ({@link
   * WorkflowTaskBudget}).
   */
  static final String ANSWERS_PER_TASK = "answers-per-task";

  /**
   * Before this version a node scheduled its activity whatever the size of its input (an email
   * whose body a template filled with a large answer): over the server's 2 MB payload limit the
   * workflow task failed on every attempt, and over 4 MB the server terminated the run. Now such a
   * node fails, saying why ({@link #requireFitsInHistory}).
   */
  static final String ACTIVITY_INPUTS_FIT = "activity-inputs-fit";

  /**
   * Before this version the recorder's batches through the crm queue were scheduled whatever their
   * task already carried: parallel branches that each hand in a large entry when they start waiting
   * took the task over 4 MB and the server terminated the run. Now they count in {@link
   * WorkflowTaskBudget}, and a batch with no room waits for the next task.
   */
  static final String RECORDINGS_PER_TASK = "recordings-per-task";

  /**
   * Before this version a node scheduled its activity in the current workflow task whatever the
   * task carried already: three 1.4 MB requests in parallel branches took the task's message over 4
   * MB and the server terminated the run. Now an input that would take its task over waits for the
   * next task ({@link WorkflowTaskBudget#schedule}).
   */
  static final String INPUTS_PER_TASK = "inputs-per-task";

  /**
   * Before this version a run's end did not show in its search attribute {@code CrmStatus}, which
   * read "running" for good.
   */
  static final String STATUS_SEARCH_ATTRIBUTE = "status-search-attribute";

  /**
   * Before this version a node's log entry did not show what it ran with. Now each entry carries
   * its {@link NodeInput}. Through the crm queue the entries are in history, where the input counts
   * in the sizes that cut batches and workflow tasks, so a run asks this version at its first
   * entry; recorded as local activities they are not, and the input changes nothing a replay sees.
   */
  static final String NODE_INPUT = "node-input";

  /**
   * The interpreter's changes whose new path every run started with this code takes: the starter
   * lists them in the run's input ({@link RunInput#startedWithChanges}), so that a run records no
   * version marker for them. A new change is asked with {@link #since} and joins this list one
   * release later, once no worker without it runs: a worker that does not know a change takes the
   * old path without a marker, and a worker that knows it would replay that history on the new path
   * if the run's input listed it. Until then {@code Workflow.getVersion} records the marker, and
   * the SDK passes over a marker that no call asks for once the change is listed.
   */
  public static final List<String> CHANGES =
      java.util.stream.Stream.concat(
              java.util.stream.Stream.of(
                  BATCHED_RECORDING,
                  SIDE_EFFECT_NODES,
                  FAILURE_SETTLES_BRANCHES,
                  FLUSH_ENDED_BRANCHES,
                  SIZED_RECORDING,
                  ANSWERS_PER_TASK,
                  ACTIVITY_INPUTS_FIT,
                  RECORDINGS_PER_TASK,
                  INPUTS_PER_TASK,
                  STATUS_SEARCH_ATTRIBUTE),
              NodeExecutors.CHANGES.stream())
          .toList();

  /** Recording in the worker's own process (see {@link RunInput#localActivities}). */
  private static final LocalActivityOptions LOCAL_RECORDING =
      LocalActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(10))
          .setRetryOptions(RECORDING.getRetryOptions())
          // the entries are in PostgreSQL: copying them into history too only doubled its size
          // and could take a marker over the server's payload limit
          .setDoNotIncludeArgumentsIntoMarker(true)
          .build();

  private RunRecorderActivities recorder;

  private RunInput input;
  private Canvas canvas;
  private final Map<String, Object> scope = new LinkedHashMap<>();
  private final Map<String, Integer> executedByType = new HashMap<>();
  private final Map<String, Boolean> edgeTaken = new HashMap<>();
  private final Set<String> settled = new HashSet<>();
  private int logSeq;
  private int active;
  private String failure;
  private boolean branchesSettle;
  private boolean batched;
  private Integer sideEffectNodesVersion;
  private final WorkflowTaskBudget taskBudget =
      new WorkflowTaskBudget(
          () -> since(ANSWERS_PER_TASK),
          () -> since(INPUTS_PER_TASK),
          () -> since(RECORDINGS_PER_TASK));
  private final List<NodeLogEntry> pending = new ArrayList<>();

  /** The span id of the workflow task running this execution (see {@link #record}). */
  private String taskSpan;

  /** By node id, the span ids of the activities that did nodes' work ({@link #activitySpan}). */
  private final Map<String, String> activitySpans = new HashMap<>();

  /** Whether entries carry their input ({@value #NODE_INPUT}); asked at the first entry. */
  private Boolean logsInput;

  private final List<Flush> flushes = new ArrayList<>();

  /** A batch of log entries on its way to the recorder. */
  private record Flush(List<NodeLogEntry> entries, Promise<Void> written) {}

  @Override
  public RunResult run(RunInput input) {
    this.input = input;
    // the workflow task's span, active on this (the run's first) thread only: its entries name it
    SpanContext task = Span.current().getSpanContext();
    this.taskSpan = task.isValid() ? task.getSpanId() : null;
    this.recorder =
        input.runsLocalActivities()
            ? Workflow.newLocalActivityStub(RunRecorderActivities.class, LOCAL_RECORDING)
            : Workflow.newActivityStub(RunRecorderActivities.class, RECORDING);
    // runs with local activities were all started after both changes: no version marker needed
    this.batched = input.runsLocalActivities() || since(BATCHED_RECORDING);
    if (input.runsLocalActivities()) {
      sideEffectNodesVersion = 1;
    }
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
      Workflow.await(() -> active == 0 || (failure != null && !branchesSettle));
    } catch (CanceledFailure cancelled) {
      Workflow.newDetachedCancellationScope(() -> end(RunResult.CANCELLED, null)).run();
      throw cancelled;
    }
    RunResult result =
        failure == null
            ? new RunResult(RunResult.COMPLETED, null)
            : new RunResult(RunResult.FAILED, failure);
    end(result.status(), result.error());
    return result;
  }

  private void record(NodeLogEntry ran) {
    record(ran, null);
  }

  /** Records the entry with what the node ran with ({@value #NODE_INPUT}). */
  private void record(NodeLogEntry ran, Map<String, Object> ranWith) {
    if (ranWith != null && logsInput == null) {
      logsInput = !recordsThroughHistory() || since(NODE_INPUT);
    }
    // sizes are counted without the span id (HistoryPayloads.entryBytes): a run under way when
    // entries began to carry it decides the same on replay
    String span = activitySpans.getOrDefault(ran.nodeId(), taskSpan);
    NodeLogEntry spanned = span == null ? ran : ran.withSpanId(span);
    NodeLogEntry entry =
        ranWith != null && Boolean.TRUE.equals(logsInput) ? spanned.withInput(ranWith) : spanned;
    NodeLogEntry recorded =
        recordsThroughHistory() && HistoryPayloads.overLimit(entry) && since(SIZED_RECORDING)
            ? HistoryPayloads.withoutOutput(entry)
            : entry;
    if (batched) {
      pending.add(recorded);
    } else {
      recorder.recordNode(input.runId(), recorded);
    }
  }

  /** Starts writing the buffered entries without waiting: called just before the run waits. */
  private void flush() {
    if (batched && !pending.isEmpty()) {
      List<NodeLogEntry> entries = List.copyOf(pending);
      pending.clear();
      List<List<NodeLogEntry>> batches = sizedBatches(entries);
      Promise<Void> written =
          batches.size() == 1
                  && (!recordsThroughHistory()
                      || taskBudget.recordNow(HistoryPayloads.entryBytes(entries)))
              ? Async.procedure(recorder::recordNodes, input.runId(), entries)
              // one after the other, each in a task with room for it, so that no workflow task
              // carries them all at once
              : Async.procedure(
                  () ->
                      batches.forEach(
                          batch -> {
                            waitForRoomToRecord(batch);
                            recorder.recordNodes(input.runId(), batch);
                          }));
      flushes.add(new Flush(entries, written));
    }
  }

  /**
   * The recorder's activities carry their entries in history when they go through the crm queue; as
   * local activities they do not (see {@link #LOCAL_RECORDING}).
   */
  private boolean recordsThroughHistory() {
    return !input.runsLocalActivities();
  }

  /**
   * Through the crm queue, waits until the current workflow task has room for the batch ({@value
   * #RECORDINGS_PER_TASK}).
   */
  private void waitForRoomToRecord(List<NodeLogEntry> batch) {
    if (recordsThroughHistory()) {
      taskBudget.recordWhenRoom(HistoryPayloads.entryBytes(batch));
    }
  }

  /** The entries as one batch, or cut to the server's payload limit ({@value #SIZED_RECORDING}). */
  private List<List<NodeLogEntry>> sizedBatches(List<NodeLogEntry> entries) {
    if (!recordsThroughHistory()) {
      return List.of(entries);
    }
    List<List<NodeLogEntry>> batches = HistoryPayloads.batches(entries);
    return batches.size() > 1 && since(SIZED_RECORDING) ? batches : List.of(entries);
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

  /**
   * Whether the run takes the path of version 1 of the change: at once for a run started with it
   * ({@link RunInput#startedWithChanges}), which records no marker; else as {@code
   * Workflow.getVersion} answers, asked only where the path differs, and the SDK answers the same
   * for the rest of the run.
   */
  @Override
  public boolean since(String changeId) {
    return input.startedWith(changeId)
        || Workflow.getVersion(changeId, Workflow.DEFAULT_VERSION, 1) == 1;
  }

  private void end(String status, String error) {
    if (since(STATUS_SEARCH_ATTRIBUTE)) {
      Workflow.upsertTypedSearchAttributes(CrmSearchAttributes.STATUS.valueSet(status));
    }
    if (!batched) {
      recorder.finishRun(input.runId(), status, error);
      return;
    }
    // A batch still on its way is waited for, so the run never ends before its log. A batch that
    // did not arrive (its activity was cancelled with the run) travels again with the end.
    List<NodeLogEntry> last = new ArrayList<>();
    for (Flush flush : flushes) {
      try {
        flush.written().get();
      } catch (ActivityFailure | CanceledFailure notWritten) {
        last.addAll(flush.entries());
      }
    }
    last.addAll(pending);
    pending.clear();
    List<List<NodeLogEntry>> batches = sizedBatches(last);
    for (List<NodeLogEntry> batch : batches.subList(0, batches.size() - 1)) {
      waitForRoomToRecord(batch);
      recorder.recordNodes(input.runId(), batch);
    }
    List<NodeLogEntry> lastBatch = batches.get(batches.size() - 1);
    waitForRoomToRecord(lastBatch);
    recorder.endRun(input.runId(), lastBatch, status, error);
  }

  /**
   * A retry starts at the failed node (and at the other nodes the failure left unrun, see {@link
   * RunInput#alsoStartAt}): edges from outside their part of the graph count as taken when their
   * source completed in the failed run, and as not taken otherwise.
   */
  private void resumeAfter(List<String> completedNodeIds) {
    Set<String> ahead =
        com.crmflow.workflow.canvas.CanvasRules.reachableFrom(canvas, input.startNodeIds());
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

  /** A branch ended: while others go on, its entries are written now, not with the run's end. */
  private void branchEnded() {
    if (batched && active > 0 && !pending.isEmpty() && since(FLUSH_ENDED_BRANCHES)) {
      flush();
    }
  }

  private CanvasNode node(String nodeId) {
    return canvas.node(nodeId).orElseThrow(() -> new IllegalStateException("no node " + nodeId));
  }

  /** Runs the node, logs it and adds the nodes it makes ready to {@code ready}. */
  private void execute(CanvasNode node, List<String> ready) {
    String type = node.type();
    Integer rerun = input.rerunOrdinals() == null ? null : input.rerunOrdinals().get(node.id());
    int ordinal = rerun != null ? rerun : executedByType.merge(type, 1, Integer::sum);
    RunResume.NodeOutcome before =
        input.resume() == null ? null : input.resume().done().get(node.id());
    if (before != null) {
      replay(node, ordinal, before, ready);
      return;
    }
    RunResume.WaitingDelay waiting = input.waitingDelay(node);
    int seq = waiting != null ? waiting.seq() : ++logSeq;
    String startedAt = now();
    Map<String, Object> atStart = NodeInput.variablesAtStart(scope);
    Map<String, Object> output;
    try {
      NodeExecutor executor = executor(node);
      Map<String, Object> running = executor.runningOutput(node, this);
      if (running != null) {
        record(
            new NodeLogEntry(
                seq, node.id(), type, RunResult.RUNNING, startedAt, null, running, null),
            NodeInput.of(node, atStart, scope));
      }
      if (executor.waits()) {
        flush();
      }
      output = run(node, executor);
    } catch (NodeSkipped skipped) {
      Map<String, Object> reason = skipped.output();
      scope.put(type + "_" + ordinal, reason);
      record(
          new NodeLogEntry(seq, node.id(), type, RunResult.SKIPPED, startedAt, now(), reason, null),
          NodeInput.of(node, atStart, scope));
      if (!(skipped instanceof NodeCut)) {
        // a node cut short by the failure is not passed: a retry runs it and what follows it
        follow(node, edge -> true, ready);
      }
      return;
    } catch (NodeFailure | ActivityFailure | ApplicationFailure e) {
      String message = message(e);
      record(
          new NodeLogEntry(seq, node.id(), type, RunResult.FAILED, startedAt, now(), null, message),
          NodeInput.of(node, atStart, scope));
      if (Boolean.TRUE.equals(node.config("continueOnFailure"))) {
        scope.put(type + "_" + ordinal, Map.of("error", message));
        follow(node, edge -> true, ready);
      } else {
        fail("node " + node.id() + " (" + type + ") failed: " + message);
      }
      return;
    }
    scope.put(type + "_" + ordinal, output);
    boolean loggedOnAcceptance = seq == 1 && NodeType.isTrigger(type) && input.startLogged();
    if (!loggedOnAcceptance) {
      record(
          new NodeLogEntry(
              seq,
              node.id(),
              type,
              RunResult.COMPLETED,
              startedAt,
              now(),
              loggedOutput(node, output),
              null),
          NodeInput.of(node, atStart, scope));
    }
    followCompleted(node, output, ready);
  }

  /**
   * The run fails with the first failure. From {@value #FAILURE_SETTLES_BRANCHES} on, the failed
   * node's entry is written at once, since the run may now wait for nodes in flight elsewhere.
   */
  private void fail(String reason) {
    if (failure != null) {
      return;
    }
    branchesSettle = since(FAILURE_SETTLES_BRANCHES);
    failure = reason;
    if (branchesSettle) {
      flush();
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
  private static NodeExecutor executor(CanvasNode node) {
    return NodeType.of(node.type())
        .map(NodeExecutors::of)
        .orElseThrow(() -> new NodeFailure("unknown node type " + node.type()));
  }

  /** Runs the node and returns its output. */
  private Map<String, Object> run(CanvasNode node, NodeExecutor executor) {
    if (executor.sideEffect() && !sideEffectNodesBuilt()) {
      throw new NodeFailure(
          "node type " + node.type() + " is not supported by this version of the engine");
    }
    return executor.execute(node, this);
  }

  private boolean sideEffectNodesBuilt() {
    if (sideEffectNodesVersion == null) {
      sideEffectNodesVersion = since(SIDE_EFFECT_NODES) ? 1 : 0;
    }
    return sideEffectNodesVersion == 1;
  }

  // ------------------------------------------------------------- what nodes use of the run

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
    if (spanId != null) {
      activitySpans.put(node.id(), spanId);
    }
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
    record(
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
  private static Map<String, Object> loggedOutput(CanvasNode node, Map<String, Object> output) {
    return NodeType.isTrigger(node.type()) ? Map.of() : output;
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

  private static String now() {
    return NodeLogEntry.timestamp(Instant.ofEpochMilli(Workflow.currentTimeMillis()));
  }
}
