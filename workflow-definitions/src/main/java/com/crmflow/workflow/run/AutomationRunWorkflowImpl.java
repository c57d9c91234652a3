package com.crmflow.workflow.run;

import com.crmflow.workflow.CrmSearchAttributes;
import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.ChatActivities;
import com.crmflow.workflow.action.CrmRecordActivities;
import com.crmflow.workflow.action.CrmWrite;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailBookActivities;
import com.crmflow.workflow.action.EmailContext;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeSecrets;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.template.TemplateReference;
import com.crmflow.workflow.template.TemplateResolver;
import io.temporal.activity.ActivityOptions;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.TimerOptions;
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
 * <p>delay is a durable timer; condition and data_transform are evaluated here; every side effect
 * is an activity named after its node type. A failing node fails the run unless its config has
 * {@code continueOnFailure: true}: then it is logged as failed, its output is {@code {error}}, and
 * the flow goes on along its edges.
 *
 * <p>Recording: the node log is buffered and written in batches, in parallel with whatever the run
 * waits on next (a timer or an activity), and the last batch travels with the end of the run. A run
 * that waits therefore shows its partial log, while a short run costs two recording activities
 * instead of one per node. Runs started before this change (no {@value #BATCHED_RECORDING} marker
 * in their history) keep recording each entry on its own.
 *
 * <p>Where the recorder and http_request run is fixed per run by {@link RunInput#localActivities}:
 * local activities in the worker's own process (embedded defaults), or activities on the crm and
 * integrations queues (distributed).
 */
public class AutomationRunWorkflowImpl implements AutomationRunWorkflow {

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

  /** Before this version an email whose outcome is unknown was not booked. */
  static final String BOOK_UNKNOWN_EMAIL = "book-unknown-email";

  /**
   * Before this version a delay waited its full length when another branch failed the run; with
   * inline chains the run then ended only when the delay was over (a day later, for a day's delay).
   * Now the failure cuts the delay short: it is logged skipped and the run ends at once.
   */
  static final String FAILURE_CUTS_DELAYS = "failure-cuts-delays";

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

  /** A local http_request's request larger than this is left out of its marker. */
  private static final long REQUEST_IN_MARKER_BYTES = 64 * 1024;

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
  private final List<Flush> flushes = new ArrayList<>();

  /** A batch of log entries on its way to the recorder. */
  private record Flush(List<NodeLogEntry> entries, Promise<Void> written) {}

  @Override
  public RunResult run(RunInput input) {
    this.input = input;
    this.recorder =
        input.runsLocalActivities()
            ? Workflow.newLocalActivityStub(RunRecorderActivities.class, LOCAL_RECORDING)
            : Workflow.newActivityStub(RunRecorderActivities.class, RECORDING);
    // runs with local activities were all started after both changes: no version marker needed
    this.batched =
        input.runsLocalActivities()
            || Workflow.getVersion(BATCHED_RECORDING, Workflow.DEFAULT_VERSION, 1) == 1;
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

  private void record(NodeLogEntry entry) {
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
                      || taskBudget.recordNow(HistoryPayloads.bytes(entries)))
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
      taskBudget.recordWhenRoom(HistoryPayloads.bytes(batch));
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
  private void requireFitsInHistory(String nodeType, Object... arguments) {
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
   * Whether the run takes the path of version 1 of the change. Asked only where the path differs (a
   * size over its limit), so most runs record no marker; the SDK answers the same for the rest of
   * the run.
   */
  private static boolean since(String changeId) {
    return Workflow.getVersion(changeId, Workflow.DEFAULT_VERSION, 1) == 1;
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
    if (batched
        && active > 0
        && !pending.isEmpty()
        && Workflow.getVersion(FLUSH_ENDED_BRANCHES, Workflow.DEFAULT_VERSION, 1) == 1) {
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
    RunResume.WaitingDelay waiting = waitingBefore(node);
    int seq = waiting != null ? waiting.seq() : ++logSeq;
    String startedAt = now();
    Map<String, Object> output;
    try {
      if (NodeType.DELAY.value().equals(type)) {
        // "until" lets operators (and the enrollment list's next step time) see when it wakes
        String until = NodeLogEntry.timestamp(wakeUp(node));
        record(
            new NodeLogEntry(
                seq,
                node.id(),
                type,
                RunResult.RUNNING,
                startedAt,
                null,
                Map.of("until", until),
                null));
      }
      if (waits(type)) {
        flush();
      }
      output = run(node);
    } catch (NodeSkipped skipped) {
      Map<String, Object> reason = skipped.output();
      scope.put(type + "_" + ordinal, reason);
      record(
          new NodeLogEntry(
              seq, node.id(), type, RunResult.SKIPPED, startedAt, now(), reason, null));
      if (!(skipped instanceof NodeCut)) {
        // a node cut short by the failure is not passed: a retry runs it and what follows it
        follow(node, edge -> true, ready);
      }
      return;
    } catch (NodeFailure | ActivityFailure | ApplicationFailure e) {
      String message = message(e);
      record(
          new NodeLogEntry(
              seq, node.id(), type, RunResult.FAILED, startedAt, now(), null, message));
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
              null));
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
    branchesSettle =
        Workflow.getVersion(FAILURE_SETTLES_BRANCHES, Workflow.DEFAULT_VERSION, 1) == 1;
    failure = reason;
    if (branchesSettle) {
      flush();
    }
  }

  /** A condition follows the edges of its branch; any other node all of its edges. */
  private void followCompleted(CanvasNode node, Map<String, Object> output, List<String> ready) {
    if (NodeType.CONDITION.value().equals(node.type())) {
      String branch = String.valueOf(output.get("result"));
      follow(node, edge -> edge.label() == null || edge.label().equals(branch), ready);
    } else {
      follow(node, edge -> true, ready);
    }
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

  /** The delay's log entry and wake-up time if it was waiting when the workflow was lost. */
  private RunResume.WaitingDelay waitingBefore(CanvasNode node) {
    return input.resume() == null || !NodeType.DELAY.value().equals(node.type())
        ? null
        : input.resume().waiting().get(node.id());
  }

  /** Whether the node waits on something outside the workflow: a timer or an activity. */
  private static boolean waits(String type) {
    return !NodeType.isTrigger(type)
        && !NodeType.CONDITION.value().equals(type)
        && !NodeType.DATA_TRANSFORM.value().equals(type);
  }

  /** Runs the node and returns its output. */
  private Map<String, Object> run(CanvasNode node) {
    NodeType type =
        NodeType.of(node.type())
            .orElseThrow(() -> new NodeFailure("unknown node type " + node.type()));
    return switch (type) {
      case WEBHOOK_TRIGGER, SCHEDULE_TRIGGER, CRM_EVENT_TRIGGER -> Map.of();
      case DELAY -> delay(node);
      case CONDITION -> NodeEvaluation.condition(node, scope);
      case DATA_TRANSFORM -> NodeEvaluation.transform(node, scope);
      case HTTP_REQUEST -> httpRequest(node);
      case EMAIL, CHAT_MESSAGE, CRM_UPDATE, CREATE_RECORD -> {
        if (!sideEffectNodesBuilt()) {
          throw new NodeFailure(
              "node type " + type.value() + " is not supported by this version of the engine");
        }
        yield switch (type) {
          case EMAIL -> email(node);
          case CHAT_MESSAGE -> chatMessage(node);
          default -> crmWrite(node, type == NodeType.CRM_UPDATE);
        };
      }
    };
  }

  private boolean sideEffectNodesBuilt() {
    if (sideEffectNodesVersion == null) {
      sideEffectNodesVersion = Workflow.getVersion(SIDE_EFFECT_NODES, Workflow.DEFAULT_VERSION, 1);
    }
    return sideEffectNodesVersion == 1;
  }

  /**
   * Reads the contact (as it is now) and the template, renders, sends, and books the email. The
   * recipient is {@code to} (variables allowed) or the run's contact; an email to a contact with
   * do_not_email is skipped, not failed.
   */
  private Map<String, Object> email(CanvasNode node) {
    String contactId = contactId();
    String templateId = stringConfig(node, "templateId");
    EmailContext context =
        contactId == null && templateId == null
            ? new EmailContext(null, null, null, null)
            : crmStub(EmailBookActivities.class, "email", node)
                .context(input.tenantId(), contactId, templateId);
    if (context.contact() != null) {
      scope.put("contact", context.contact());
    }
    String configuredTo = stringConfig(node, "to");
    String contactEmail =
        context.contact() == null ? null : (String) context.contact().get("email");
    String to = configuredTo == null ? contactEmail : TemplateResolver.render(configuredTo, scope);
    if (to == null || to.isBlank()) {
      throw new NodeFailure("the email has no recipient: no `to` and no contact with an email");
    }
    if (context.contact() != null
        && Boolean.TRUE.equals(context.contact().get("do_not_email"))
        && to.trim().equalsIgnoreCase(contactEmail)) {
      throw new NodeSkipped("contact has do_not_email");
    }
    String subject = firstNonNull(stringConfig(node, "subject"), context.subject(), "");
    String text = firstNonNull(stringConfig(node, "body"), context.textBody(), null);
    EmailMessage message =
        new EmailMessage(
            EmailMessage.messageIdFor(input.runId(), node.id()),
            to.trim(),
            TemplateResolver.render(subject, scope),
            TemplateResolver.render(text, scope),
            TemplateResolver.render(context.htmlBody(), scope));
    requireFitsInHistory("email", message);
    EmailActivities smtp =
        Workflow.newActivityStub(
            EmailActivities.class,
            ActivityOptions.newBuilder()
                .setTaskQueue(TaskQueues.INTEGRATIONS)
                .setStartToCloseTimeout(Duration.ofSeconds(60))
                .setSummary("email · " + label(node))
                .setRetryOptions(
                    RetryOptions.newBuilder()
                        .setInitialInterval(Duration.ofSeconds(5))
                        .setBackoffCoefficient(2)
                        .setMaximumInterval(Duration.ofMinutes(10))
                        .setMaximumAttempts(12)
                        .setDoNotRetry(EmailActivities.INVALID_ADDRESS)
                        .build())
                .build());
    EmailReceipt receipt;
    try {
      receipt = smtp.send(message);
    } catch (ActivityFailure failure) {
      // booked as unknown, so operators find it among the outbound emails; the node still fails
      if (failure.getCause() instanceof ApplicationFailure cause
          && EmailActivities.OUTCOME_UNKNOWN.equals(cause.getType())
          && Workflow.getVersion(BOOK_UNKNOWN_EMAIL, Workflow.DEFAULT_VERSION, 1) == 1) {
        crmStub(EmailBookActivities.class, "email", node)
            .record(input.tenantId(), input.runId(), node.id(), message, EmailReceipt.UNKNOWN);
      }
      throw failure;
    }
    crmStub(EmailBookActivities.class, "email", node)
        .record(input.tenantId(), input.runId(), node.id(), message, receipt.status());
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("messageId", message.messageId());
    output.put("to", message.to());
    output.put("subject", message.subject());
    output.put("status", receipt.status());
    return output;
  }

  private Map<String, Object> chatMessage(CanvasNode node) {
    String channel = TemplateResolver.render(stringConfig(node, "channel"), scope);
    String text = TemplateResolver.render(stringConfig(node, "messageTemplate"), scope);
    requireFitsInHistory("message", channel, text);
    return crmStub(ChatActivities.class, "chat_message", node)
        .post(input.tenantId(), channel, text, input.runId(), node.id());
  }

  /**
   * crm_update changes the record named by {@code recordId} (variables allowed; by default the
   * trigger's {@code <entityType>_id}); create_record creates one. Field mappings are rendered
   * here, validated and written by api-server.
   */
  @SuppressWarnings("unchecked")
  private Map<String, Object> crmWrite(CanvasNode node, boolean update) {
    String entityType = stringConfig(node, "entityType");
    Map<String, Object> fields =
        node.config("fieldMappings") instanceof Map<?, ?> mappings
            ? (Map<String, Object>) TemplateResolver.renderValue(mappings, scope)
            : Map.of();
    String recordId = null;
    if (update) {
      String configured = stringConfig(node, "recordId");
      recordId =
          TemplateResolver.render(
              configured != null ? configured : "{{trigger." + entityType + "_id}}", scope);
      if (recordId.isBlank() && "contact".equals(entityType)) {
        recordId = contactId();
      }
      if (recordId == null || recordId.isBlank()) {
        throw new NodeFailure(
            "crm_update has no record to update: set recordId or send "
                + entityType
                + "_id in the trigger payload");
      }
    }
    CrmWrite write =
        new CrmWrite(input.tenantId(), entityType, recordId, fields, input.runId(), node.id());
    requireFitsInHistory("record", write);
    CrmRecordActivities records =
        crmStub(CrmRecordActivities.class, update ? "crm_update" : "create_record", node);
    return update ? records.update(write) : records.create(write);
  }

  /** An activity on api-server's crm queue; refusals (not found, invalid) are not retried. */
  private <T> T crmStub(Class<T> activities, String nodeType, CanvasNode node) {
    return Workflow.newActivityStub(
        activities,
        ActivityOptions.newBuilder()
            .setTaskQueue(TaskQueues.CRM)
            .setStartToCloseTimeout(Duration.ofSeconds(30))
            .setSummary(nodeType + " · " + label(node))
            .setRetryOptions(
                RetryOptions.newBuilder()
                    .setInitialInterval(Duration.ofSeconds(1))
                    .setBackoffCoefficient(2)
                    .setMaximumInterval(Duration.ofMinutes(2))
                    .setMaximumAttempts(10)
                    .setDoNotRetry(
                        CrmRecordActivities.REJECTED,
                        ChatActivities.REJECTED,
                        EmailBookActivities.NOT_FOUND)
                    .build())
            .build());
  }

  /** The run's contact: the one loaded at the start, or the trigger payload's contact_id. */
  private String contactId() {
    Object fromContact = input.contact() == null ? null : input.contact().get("contact_id");
    Object id =
        fromContact != null ? fromContact : TemplateResolver.lookup(scope, "trigger.contact_id");
    return id instanceof String s && !s.isBlank() ? s : null;
  }

  private static String stringConfig(CanvasNode node, String key) {
    return node.config(key) instanceof String s && !s.isBlank() ? s : null;
  }

  private static String firstNonNull(String first, String second, String otherwise) {
    return first != null ? first : second != null ? second : otherwise;
  }

  /**
   * When a delay that starts now wakes: at the time logged for it before (a resumed run's delay
   * that was waiting, a retry's delay that the failure cut short), else its length from now.
   */
  private Instant wakeUp(CanvasNode node) {
    String logged = loggedWakeUp(node);
    return logged != null
        ? Instant.parse(logged)
        : Instant.ofEpochMilli(Workflow.currentTimeMillis()).plus(delayDuration(node));
  }

  private String loggedWakeUp(CanvasNode node) {
    RunResume.WaitingDelay waiting = waitingBefore(node);
    if (waiting != null) {
      return waiting.until();
    }
    return input.delaysWakeUp() == null ? null : input.delaysWakeUp().get(node.id());
  }

  private Map<String, Object> delay(CanvasNode node) {
    double days = number(node.config("delayDays"));
    double hours = number(node.config("delayHours"));
    Duration duration = delayDuration(node);
    boolean wakesAtLoggedTime = loggedWakeUp(node) != null;
    Instant wakeUp = wakeUp(node);
    Duration left =
        wakesAtLoggedTime
            ? Duration.between(Instant.ofEpochMilli(Workflow.currentTimeMillis()), wakeUp)
            : duration;
    // a resumed or retried delay waits only for what is left of it, if anything
    if (!wakesAtLoggedTime || left.compareTo(Duration.ZERO) > 0) {
      boolean cutByFailure =
          Workflow.getVersion(FAILURE_CUTS_DELAYS, Workflow.DEFAULT_VERSION, 1) == 1;
      Promise<Void> timer =
          Workflow.newTimer(
              left, TimerOptions.newBuilder().setSummary("wait " + describe(days, hours)).build());
      if (cutByFailure) {
        Workflow.await(() -> timer.isCompleted() || failure != null);
        if (!timer.isCompleted()) {
          // from FAILURE_SETTLES_BRANCHES on, its retry wakes when it would have
          throw new NodeCut(branchesSettle ? NodeLogEntry.timestamp(wakeUp) : null);
        }
      }
      timer.get();
    }
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("waitedSeconds", duration.toSeconds());
    return output;
  }

  private Map<String, Object> httpRequest(CanvasNode node) {
    int timeout =
        node.config("timeoutSeconds") instanceof Number n
            ? Math.max(1, Math.min(60, n.intValue()))
            : 30;
    Map<String, String> headers = new LinkedHashMap<>();
    Map<String, String> sealedVariables = new LinkedHashMap<>();
    if (node.config("headers") instanceof Map<?, ?> configured) {
      configured.forEach(
          (k, v) -> {
            String value = String.valueOf(v);
            if (NodeSecrets.isSealed(value)) {
              // the secret stays sealed; only the values of its variables are resolved here
              headers.put(String.valueOf(k), value);
              TemplateReference.in(value)
                  .forEach(
                      reference ->
                          sealedVariables.put(
                              reference.token(),
                              TemplateResolver.render(reference.token(), scope)));
            } else {
              headers.put(String.valueOf(k), TemplateResolver.render(value, scope));
            }
          });
    }
    String body =
        node.config("bodyTemplate") == null
            ? null
            : TemplateResolver.render(String.valueOf(node.config("bodyTemplate")), scope, true);
    HttpRequestCommand command =
        new HttpRequestCommand(
            String.valueOf(node.config("method")),
            TemplateResolver.render(String.valueOf(node.config("url")), scope),
            headers,
            body,
            timeout,
            input.runId() + ":" + node.id(),
            input.tenantId(),
            sealedVariables);
    RetryOptions retry =
        RetryOptions.newBuilder()
            .setInitialInterval(Duration.ofSeconds(1))
            .setBackoffCoefficient(2)
            .setMaximumInterval(Duration.ofMinutes(1))
            .setMaximumAttempts(5)
            .setDoNotRetry(
                HttpRequestActivities.CLIENT_ERROR, HttpRequestActivities.FORBIDDEN_DESTINATION)
            .build();
    Duration deadline = Duration.ofSeconds(timeout + 5L);
    String summary = "http_request · " + label(node);
    // the request shows in the Temporal UI unless it would crowd the task's answers out
    long requestBytes = input.runsLocalActivities() ? HistoryPayloads.bytes(command) : 0;
    boolean requestInMarker = requestBytes <= REQUEST_IN_MARKER_BYTES;
    long reserved = WorkflowTaskBudget.ANSWER_BYTES + (requestInMarker ? requestBytes : 0);
    HttpResponseData response;
    if (input.runsLocalActivities() && taskBudget.reserve(reserved)) {
      long carried = requestInMarker ? requestBytes : 0;
      try {
        response =
            Workflow.newLocalActivityStub(
                    HttpRequestActivities.class,
                    LocalActivityOptions.newBuilder()
                        .setStartToCloseTimeout(deadline)
                        .setSummary(summary)
                        .setRetryOptions(retry)
                        .setDoNotIncludeArgumentsIntoMarker(!requestInMarker)
                        .build())
                .send(command);
        carried += HistoryPayloads.bytes(response);
      } finally {
        taskBudget.landed(reserved, carried);
      }
    } else {
      // distributed, or no room left in this task for a local call's answer (see taskBudget)
      requireFitsInHistory("request", command);
      response =
          Workflow.newActivityStub(
                  HttpRequestActivities.class,
                  ActivityOptions.newBuilder()
                      .setTaskQueue(TaskQueues.INTEGRATIONS)
                      .setStartToCloseTimeout(deadline)
                      .setSummary(summary)
                      .setRetryOptions(retry)
                      .build())
              .send(command);
    }
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("statusCode", response.statusCode());
    output.put("headers", response.headers());
    output.put("body", response.body());
    return output;
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

  private static Duration delayDuration(CanvasNode node) {
    double hours = number(node.config("delayDays")) * 24 + number(node.config("delayHours"));
    return Duration.ofMillis(Math.round(hours * 3_600_000));
  }

  private static String now() {
    return NodeLogEntry.timestamp(Instant.ofEpochMilli(Workflow.currentTimeMillis()));
  }

  private static double number(Object value) {
    return value instanceof Number n ? n.doubleValue() : 0;
  }

  private static String describe(double days, double hours) {
    StringBuilder out = new StringBuilder();
    if (days > 0) {
      out.append(TemplateResolver.asString(days)).append(days == 1 ? " day" : " days");
    }
    if (hours > 0) {
      out.append(out.isEmpty() ? "" : " ")
          .append(TemplateResolver.asString(hours))
          .append(hours == 1 ? " hour" : " hours");
    }
    return out.toString();
  }

  private static String label(CanvasNode node) {
    String label = node.label();
    return label == null || label.isBlank() ? node.id() : label;
  }
}
