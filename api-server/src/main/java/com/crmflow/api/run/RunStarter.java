package com.crmflow.api.run;

import com.crmflow.api.canvas.CanvasRepository;
import com.crmflow.api.config.CrmProperties;
import com.crmflow.api.contact.ContactRepository;
import com.crmflow.api.sequence.Sequence;
import com.crmflow.api.sequence.SequenceRepository;
import com.crmflow.api.temporal.TenantFairness;
import com.crmflow.workflow.CrmSearchAttributes;
import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.contract.RunResume;
import com.crmflow.workflow.enrollment.EnrollmentWorkflow;
import com.crmflow.workflow.history.HistoryPayloads;
import com.crmflow.workflow.node.FlowAccess;
import com.crmflow.workflow.rules.CanvasRules;
import com.crmflow.workflow.run.InterpreterChanges;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.opentelemetry.context.Context;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowTargetOptions;
import io.temporal.common.SearchAttributes;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Component;

/**
 * Hands an accepted run to Temporal. Safe to call again for the same run (the workflow id is
 * derived from the run id), which is what the reconciler does for runs whose start failed.
 */
@Component
public class RunStarter {

  private static final Logger log = LoggerFactory.getLogger(RunStarter.class);

  private final WorkflowClient client;
  private final CanvasRepository canvases;
  private final ContactRepository contacts;
  private final RunRepository runs;
  private final RunEnding ending;
  private final SequenceRepository sequences;

  /** Flow names for the Temporal UI's summaries; a rename shows in runs started a minute later. */
  private final Cache<UUID, String> flowNames =
      Caffeine.newBuilder().expireAfterWrite(Duration.ofMinutes(1)).maximumSize(10_000).build();

  private final ThreadPoolExecutor starts =
      new ThreadPoolExecutor(
          8,
          8,
          1,
          TimeUnit.MINUTES,
          // short on purpose: a long queue let triggers be accepted faster than runs could
          // start, and every queued start waited its turn (end-to-end p99 17 s at 1,000 queued
          // under the benchmark, 3.6 s at 32); past it, triggers slow down instead
          new ArrayBlockingQueue<>(32),
          new CustomizableThreadFactory("run-starter-"),
          new ThreadPoolExecutor.CallerRunsPolicy());

  private final boolean localActivities;

  /**
   * Whether other api-servers share this one's runs (the distributed profile): a cancel one of them
   * handles is then seen here only in the database (see {@link #cancelledBeforeStart}).
   */
  private final boolean sharedByApiServers;

  /** Runs cancelled before their workflow started (see {@link #cancelledBeforeStart}). */
  private final Cache<UUID, Boolean> cancelledUnstarted =
      Caffeine.newBuilder().expireAfterWrite(Duration.ofHours(1)).maximumSize(100_000).build();

  /** The JSON size of each canvas version in a run's workflow input (see {@link #canvasBytes}). */
  private final Cache<CanvasVersion, Integer> canvasBytes =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterAccess(Duration.ofHours(1)).build();

  /** Whether each canvas version reads the contact (see {@link #contactOf}). */
  private final Cache<CanvasVersion, Boolean> readsContact =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterAccess(Duration.ofHours(1)).build();

  private record CanvasVersion(UUID tenantId, UUID sequenceId, int version) {}

  private static final int EMPTY_CANVAS_BYTES = HistoryPayloads.bytes(Canvas.empty());

  @Autowired
  RunStarter(
      WorkflowClient client,
      CanvasRepository canvases,
      ContactRepository contacts,
      RunRepository runs,
      RunEnding ending,
      SequenceRepository sequences,
      CrmProperties properties) {
    this(
        client,
        canvases,
        contacts,
        runs,
        ending,
        sequences,
        properties.runs().localActivities(),
        properties.runs().sharedByApiServers());
  }

  /**
   * @param localActivities whether this process's own worker runs the workflows, the recorder and
   *     http_request (the embedded defaults): runs then use local activities for them. False in the
   *     distributed profile, where workflow-workers without this server's data run the workflows.
   * @param sharedByApiServers whether several api-servers accept, start and cancel the same runs
   */
  RunStarter(
      WorkflowClient client,
      CanvasRepository canvases,
      ContactRepository contacts,
      RunRepository runs,
      RunEnding ending,
      SequenceRepository sequences,
      boolean localActivities,
      boolean sharedByApiServers) {
    this.ending = ending;
    this.sequences = sequences;
    this.localActivities = localActivities;
    this.sharedByApiServers = sharedByApiServers;
    this.client = client;
    this.canvases = canvases;
    this.contacts = contacts;
    this.runs = runs;
  }

  /**
   * Hands the start to a small pool and returns at once: the trigger answers as soon as the run row
   * is committed. When the pool is saturated the caller starts the workflow itself, which slows
   * triggers down instead of queueing without bound. A start that never happens (process ends with
   * starts queued) is the reconciler's.
   */
  public void startSoon(AutomationRun run, Canvas canvas) {
    // the start continues the trace of the request that accepted the run
    starts.execute(Context.current().wrap((Runnable) () -> start(run, canvas, false, null)));
  }

  /** As {@link #startSoon}, for a run inserted with its trigger's log entry (insertAccepted). */
  public void startAccepted(AutomationRun run, Canvas canvas) {
    starts.execute(Context.current().wrap((Runnable) () -> start(run, canvas, true, null)));
  }

  /**
   * A cancel (of the run, or an unenroll) found no workflow: the run is ended as cancelled, if it
   * still runs (the reconciler leaves it then), and since its start may still be on its way (queued
   * in the start pool), this process never starts it, and cancels it at once if the start was
   * already under way. Remembered an hour, far longer than a start waits.
   *
   * <p>With api-servers sharing the runs, the start may be another server's. Every start then also
   * reads the run's status, before and after it starts the workflow, and this cancel looks for the
   * workflow once more after the run has ended. Whatever the order, one of the two sees the other:
   * a start after that second look finds the run cancelled, and a start before it is found by it.
   *
   * @param workflowId the run's workflow id
   */
  public void cancelledBeforeStart(UUID runId, String workflowId) {
    cancelledUnstarted.put(runId, Boolean.TRUE);
    ending.end(runId, List.of(), RunResult.CANCELLED, null);
    if (sharedByApiServers) {
      cancelIfStartedElsewhere(runId, workflowId);
    }
  }

  /**
   * Cancels the workflow execution started for this run, if it runs. An enrollment's workflow id
   * passes to the contact's next enrollment, so the execution under the run's workflow id may be
   * another run's: that one is left alone (memo run_id; an execution without that memo is taken to
   * be this run's).
   *
   * @return false when no execution of this run runs: not started yet, or over
   * @throws RuntimeException when Temporal cannot be reached
   */
  public boolean cancelRunning(UUID runId, String workflowId) {
    Optional<WorkflowExecutionDescription> found = executionOf(runId, workflowId);
    if (found.isEmpty()
        || found.get().getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      return false;
    }
    return cancelExecution(found.get().getExecution());
  }

  /**
   * The execution under the workflow id, running or closed, if it was started for this run (memo
   * run_id; an execution without that memo is taken to be this run's).
   *
   * @throws RuntimeException when Temporal cannot be reached
   */
  private Optional<WorkflowExecutionDescription> executionOf(UUID runId, String workflowId) {
    WorkflowExecutionDescription found;
    try {
      found = client.newUntypedWorkflowStub(workflowId).describe();
    } catch (WorkflowNotFoundException notStarted) {
      return Optional.empty();
    }
    Object startedFor = found.getMemo("run_id", String.class);
    return startedFor == null || startedFor.equals(runId.toString())
        ? Optional.of(found)
        : Optional.empty();
  }

  /**
   * @return false when the execution ended meanwhile
   * @throws RuntimeException when Temporal cannot be reached
   */
  private boolean cancelExecution(WorkflowExecution execution) {
    try {
      client
          .newUntypedWorkflowStub(
              WorkflowTargetOptions.newBuilder().setWorkflowExecution(execution).build(),
              Optional.empty())
          .cancel();
      return true;
    } catch (WorkflowNotFoundException endedMeanwhile) {
      return false;
    }
  }

  /** Cancels the run's workflow if another api-server has started it. */
  private void cancelIfStartedElsewhere(UUID runId, String workflowId) {
    try {
      cancelRunning(runId, workflowId);
    } catch (RuntimeException unreachable) {
      log.warn(
          "Could not look for a workflow of cancelled run {}: {}", runId, unreachable.toString());
    }
  }

  /** Cancels that execution of a cancelled run's workflow, if it still runs. */
  private void cancel(WorkflowExecution execution) {
    try {
      cancelExecution(execution);
    } catch (RuntimeException unreachable) {
      log.warn(
          "Could not cancel workflow {} of a cancelled run: {}",
          execution.getWorkflowId(),
          unreachable.toString());
    }
  }

  /** Whether the run was cancelled (this process's cancels; with shared runs, anyone's). */
  private boolean wasCancelled(UUID runId) {
    return cancelledUnstarted.estimatedSize() > 0 && cancelledUnstarted.getIfPresent(runId) != null
        || sharedByApiServers && runs.isCancelled(runId);
  }

  @PreDestroy
  void stopStarting() {
    starts.shutdownNow();
  }

  /**
   * Starts the run's workflow where the run's node log stands: from its start for a run that never
   * ran (the log holds at most its trigger), or on from where it stands (see {@link RunResume}).
   * The reconciler, a retry and a schedule start runs this way; a start that finds the workflow
   * running changes nothing.
   *
   * @return whether Temporal has the workflow now (false: the reconciler will try again)
   */
  public boolean start(AutomationRun run) {
    List<NodeLogEntry> log = runs.loggedNodes(run.id());
    boolean startLogged =
        !log.isEmpty() && log.get(0).seq() == 1 && log.get(0).nodeId().equals(run.startNodeId());
    return start(run, null, startLogged, whereItStood(log));
  }

  /**
   * @param canvas the run's pinned canvas when the caller has it already, else null
   * @param startLogged whether the start node's log entry exists already (RunInput#triggerLogged)
   * @param resume where the run's node log stands, or null for a run just accepted
   */
  private boolean start(AutomationRun run, Canvas canvas, boolean startLogged, RunResume resume) {
    try {
      if (wasCancelled(run.id())) {
        return true; // cancelled while its start waited: it never starts
      }
      WorkflowExecution started;
      RunInput input = input(run, canvas, startLogged, resume);
      // a payload and a contact of up to 1 MB each, a canvas of up to 1 MB, the outputs a retry or
      // a resumed run carries on: together they can be more than a server takes
      int bytes = inputBytes(run, input);
      if (bytes > HistoryPayloads.LIMIT_BYTES) {
        if (executionOf(run.id(), run.workflowId()).isPresent()) {
          return true; // started before (a reconciler probe of a run not heard from lately)
        }
        // no server would take it, and trying again would not change that
        ending.end(
            run.id(),
            List.of(),
            RunResult.FAILED,
            "the run cannot start: its workflow input (trigger payload, contact, canvas and any"
                + " outputs it carries on) is "
                + bytes
                + " bytes of JSON, over the "
                + HistoryPayloads.LIMIT_BYTES
                + " bytes Temporal takes");
        return true;
      }
      String triggerKind = triggerKind(run, input.canvas());
      String flowName = flowName(run);
      Map<String, Object> memo = new LinkedHashMap<>();
      memo.put("tenant_id", run.tenantId().toString());
      memo.put("sequence_id", run.sequenceId().toString());
      memo.put("sequence_name", flowName);
      memo.put("run_id", run.id().toString());
      memo.put("canvas_version", run.canvasVersion());
      memo.put("trigger", triggerKind);
      if (run.enrollmentId() != null) {
        memo.put("enrollment_id", run.enrollmentId().toString());
      }
      if (run.retryOf() != null) {
        memo.put("retry_of", run.retryOf().toString());
      }
      WorkflowOptions.Builder options =
          WorkflowOptions.newBuilder()
              .setTaskQueue(TaskQueues.AUTOMATION)
              .setWorkflowId(run.workflowId())
              // when this process's worker polls the queue and has a free slot, the first
              // workflow task comes back with the start answer: no poll round trip
              .setDisableEagerExecution(false)
              .setMemo(memo)
              .setPriority(TenantFairness.of(run.tenantId()))
              .setTypedSearchAttributes(
                  SearchAttributes.newBuilder()
                      .set(CrmSearchAttributes.TENANT_ID, run.tenantId().toString())
                      .set(CrmSearchAttributes.SEQUENCE_ID, run.sequenceId().toString())
                      .set(CrmSearchAttributes.TRIGGER_KIND, triggerKind)
                      .set(CrmSearchAttributes.STATUS, RunResult.RUNNING)
                      .build())
              .setStaticSummary(summary(run, flowName, triggerKind, input.canvas()))
              .setStaticDetails(details(run));
      if (run.enrollmentId() == null) {
        AutomationRunWorkflow workflow =
            client.newWorkflowStub(
                AutomationRunWorkflow.class,
                // a run executes once: a second start (reconciler, retry of the start) of an id
                // whose workflow already finished must not run it again
                options
                    .setWorkflowIdReusePolicy(
                        WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
                    .build());
        started = WorkflowClient.start(workflow::run, input);
      } else {
        // the id names the (tenant, sequence, contact), reused by a later enrollment once this
        // one ended; the reconciler only restarts runs still running, so an ended run stays ended
        EnrollmentWorkflow workflow =
            client.newWorkflowStub(
                EnrollmentWorkflow.class,
                options
                    .setWorkflowIdReusePolicy(
                        WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
                    .build());
        started = WorkflowClient.start(workflow::run, input);
      }
      if (wasCancelled(run.id())) {
        cancel(started); // the cancel came between the check above and the start
      }
    } catch (WorkflowExecutionAlreadyStarted already) {
      // started before (an earlier attempt, or the reconciler probing a run not heard from yet)
      runs.markWorkflowStarted(run.id());
    } catch (RuntimeException e) {
      log.warn("Could not start the workflow of run {} yet: {}", run.id(), e.toString());
      return false;
    }
    // no write when the start succeeds: the workflow's first recording marks the run started
    return true;
  }

  /**
   * What started the run, as its search attribute {@code CrmTriggerKind} says: {@code enrollment},
   * {@code retry}, or the type of its trigger node ({@code webhook_trigger}, {@code
   * schedule_trigger}, {@code crm_event_trigger}).
   */
  static String triggerKind(AutomationRun run, Canvas canvas) {
    if (run.retryOf() != null) {
      return "retry";
    }
    if (run.enrollmentId() != null) {
      return "enrollment";
    }
    return canvas.node(run.triggerNodeId()).map(CanvasNode::type).orElse("trigger");
  }

  /** The automation's or sequence's name, for the Temporal UI (remembered a minute). */
  private String flowName(AutomationRun run) {
    return flowNames.get(
        run.sequenceId(),
        id -> sequences.find(run.tenantId(), id).map(Sequence::name).orElse("(deleted flow)"));
  }

  /** One line a person reads in the Temporal UI's list: what ran, started how, which run. */
  private static String summary(
      AutomationRun run, String flowName, String triggerKind, Canvas canvas) {
    String trigger =
        canvas
            .node(run.triggerNodeId())
            .map(n -> n.label() == null || n.label().isBlank() ? triggerKind : n.label())
            .orElse(triggerKind);
    String what = run.enrollmentId() != null ? "Enrollment in " : "Automation ";
    return what + "\"" + flowName + "\" · " + trigger + " · run " + run.id();
  }

  /** Markdown the Temporal UI shows on the workflow's page. */
  private static String details(AutomationRun run) {
    StringBuilder details =
        new StringBuilder()
            .append("**Run** `")
            .append(run.id())
            .append("` of sequence `")
            .append(run.sequenceId())
            .append("` (canvas version ")
            .append(run.canvasVersion())
            .append(") for tenant `")
            .append(run.tenantId())
            .append("`.\n\nIts record and node log: `GET /api/v1/automation-runs/")
            .append(run.id())
            .append("`.");
    if (run.retryOf() != null) {
      details.append("\n\nA retry of run `").append(run.retryOf()).append("`.");
    }
    return details.toString();
  }

  /**
   * How much JSON the run's workflow input is, as the data converter writes it. The canvas is
   * measured once per version (it is most of a typical input, and the same for every run of it).
   */
  private int inputBytes(AutomationRun run, RunInput input) {
    return HistoryPayloads.bytes(input.withCanvas(Canvas.empty()))
        - EMPTY_CANVAS_BYTES
        + canvasBytes(run.tenantId(), run.sequenceId(), run.canvasVersion(), input.canvas());
  }

  /**
   * How much JSON the canvas version is in a run's workflow input (remembered: a version never
   * changes).
   *
   * @param canvas that version
   */
  public int canvasBytes(UUID tenantId, UUID sequenceId, int version, Canvas canvas) {
    return canvasBytes.get(
        new CanvasVersion(tenantId, sequenceId, version), key -> HistoryPayloads.bytes(canvas));
  }

  /**
   * How much JSON a retry of the failed run, started at the node, would carry in its workflow's
   * input (compare with {@link HistoryPayloads#LIMIT_BYTES}).
   */
  int retryInputBytes(AutomationRun failed, String startNodeId) {
    AutomationRun retry =
        new AutomationRun(
            UUID.randomUUID(),
            failed.tenantId(),
            failed.sequenceId(),
            failed.canvasVersion(),
            failed.triggerNodeId(),
            startNodeId,
            failed.triggerPayload(),
            RunResult.RUNNING,
            List.of(),
            null,
            failed.workflowId(),
            failed.id(),
            failed.enrollmentId(),
            null,
            null,
            null,
            null);
    return inputBytes(retry, input(retry, null, false, null));
  }

  private RunInput input(AutomationRun run, Canvas pinned, boolean startLogged, RunResume resume) {
    Canvas canvas = pinned != null ? pinned : canvasOf(run);
    RetryContext retry =
        run.retryOf() == null
            ? new RetryContext(Map.of(), List.of(), List.of(), null, null, null)
            : retryContext(canvas, run);
    return new RunInput(
        run.tenantId().toString(),
        run.sequenceId().toString(),
        run.id().toString(),
        run.canvasVersion(),
        canvas,
        run.startNodeId(),
        payloadMap(run.triggerPayload()),
        contactOf(run, canvas),
        retry.priorOutputs(),
        retry.completedNodeIds(),
        localActivities,
        true,
        startLogged,
        retry.passedOver() == null ? resume : passOver(retry.passedOver(), resume),
        retry.alsoStartAt(),
        retry.rerunOrdinals(),
        retry.delaysWakeUp(),
        InterpreterChanges.CHANGES);
  }

  private Canvas canvasOf(AutomationRun run) {
    return canvases
        .version(run.tenantId(), run.sequenceId(), run.canvasVersion())
        .orElseThrow()
        .toCanvas();
  }

  /**
   * The {@code start_node_id} of a retry of the failed run: its failed node (see {@link
   * RetryStarts}); for a run stopped in Temporal, where the run started (see {@link
   * #retryContext}).
   */
  String retryStartNode(AutomationRun failed) {
    List<String> unrun =
        RetryStarts.of(canvasOf(failed), runs.loggedNodes(failed.id()), failed.error());
    return RetryStarts.failedAtANode(unrun, failed.error()) ? unrun.get(0) : failed.startNodeId();
  }

  /** The log as a {@link RunResume}, leaving out the nodes to run again. */
  private static RunResume whereItStood(List<NodeLogEntry> log, List<String> runAgain) {
    return whereItStood(log.stream().filter(entry -> !runAgain.contains(entry.nodeId())).toList());
  }

  /**
   * The run's node log as a {@link RunResume}: finished nodes with their outcome, delays still
   * running with their seq and wake-up time. Nodes finished but not yet logged when the workflow
   * was lost run again, with the same idempotency keys (run id and node id).
   */
  private static RunResume whereItStood(List<NodeLogEntry> log) {
    Map<String, RunResume.NodeOutcome> done = new HashMap<>();
    Map<String, RunResume.WaitingDelay> waiting = new HashMap<>();
    int lastSeq = 0;
    for (NodeLogEntry entry : log) {
      lastSeq = Math.max(lastSeq, entry.seq());
      if (!RunResult.RUNNING.equals(entry.status())) {
        done.put(
            entry.nodeId(),
            new RunResume.NodeOutcome(entry.status(), entry.output(), entry.error()));
      } else if (entry.output() != null && entry.output().get("until") instanceof String until) {
        waiting.put(entry.nodeId(), new RunResume.WaitingDelay(entry.seq(), until));
      }
    }
    return new RunResume(done, waiting, lastSeq);
  }

  /** {{trigger.*}} reads the payload's fields; a payload that is no object is {{trigger.value}}. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> payloadMap(Object payload) {
    if (payload instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    Map<String, Object> wrapped = new HashMap<>();
    wrapped.put("value", payload);
    return wrapped;
  }

  /**
   * {{contact.*}}: the contact named by the payload's contact_id (or, for a CRM event, its
   * data.contact_id), if it is one of the tenant's. A flow that does not read the contact ({@link
   * FlowAccess#readsContact}) is given only its id (for a crm_update of the run's contact): a run
   * receives a record only when its flow reads it.
   */
  private Map<String, Object> contactOf(AutomationRun run, Canvas canvas) {
    Map<String, Object> payload = payloadMap(run.triggerPayload());
    Object named = payload.get("contact_id");
    if (named == null && payload.get("data") instanceof Map<?, ?> data) {
      named = data.get("contact_id");
    }
    if (named instanceof String id) {
      try {
        return contacts
            .find(run.tenantId(), UUID.fromString(id))
            .map(
                c ->
                    readsContact(run, canvas)
                        ? c.asEventData()
                        : Map.<String, Object>of("contact_id", c.id().toString()))
            .orElse(null);
      } catch (IllegalArgumentException notAUuid) {
        return null;
      }
    }
    return null;
  }

  /** Whether the run's canvas version reads the contact (remembered: a version never changes). */
  private boolean readsContact(AutomationRun run, Canvas canvas) {
    return readsContact.get(
        new CanvasVersion(run.tenantId(), run.sequenceId(), run.canvasVersion()),
        key -> FlowAccess.of(canvas).readsContact());
  }

  /** What a retry carries on from the runs it retries (see the fields of {@link RunInput}). */
  private record RetryContext(
      Map<String, Object> priorOutputs,
      List<String> completedNodeIds,
      List<String> alsoStartAt,
      Map<String, Integer> rerunOrdinals,
      Map<String, String> delaysWakeUp,
      RunResume passedOver) {}

  /**
   * The variables the nodes before the retry's start nodes produced, rebuilt in execution order
   * from the node logs of the retried run and of the runs it retries in turn (a retry's log starts
   * at the nodes it ran again, so the earlier outputs are in the logs before it). A node is
   * numbered where it first ran in the chain ({@code http_request_2}), as the interpreter numbers
   * it; a node run again keeps its number, and one that never started (its turn came after a
   * failure) has none yet.
   */
  private RetryContext retryContext(Canvas canvas, AutomationRun retry) {
    List<AutomationRun> chain = new ArrayList<>(); // the first run first
    for (UUID id = retry.retryOf(); id != null; ) {
      AutomationRun earlier = runs.findAnyTenant(id).orElseThrow();
      chain.add(0, earlier);
      id = earlier.retryOf();
    }
    Map<String, Object> prior = new HashMap<>();
    List<String> completed = new ArrayList<>();
    Map<String, Integer> ordinalOf = new HashMap<>();
    Map<String, Integer> counts = new HashMap<>();
    List<String> starts = List.of();
    Map<String, String> delaysWakeUp = Map.of();
    RunResume passedOver = null;
    for (AutomationRun earlier : chain) {
      List<NodeLogEntry> log = runs.loggedNodes(earlier.id());
      List<String> unrun = RetryStarts.of(canvas, log, earlier.error());
      List<String> ranAgain = new ArrayList<>(unrun);
      if (earlier.id().equals(retry.retryOf())
          && !RetryStarts.failedAtANode(unrun, earlier.error())) {
        // stopped in Temporal (terminated, timed out): a call in flight then has no entry, so the
        // retry walks again from where the run started, passes over the nodes it logged as
        // finished (as a resumed run does) and runs the others
        starts = List.of(retry.startNodeId());
        passedOver = whereItStood(log, unrun);
        log.forEach(entry -> ranAgain.add(entry.nodeId()));
      } else if (earlier.id().equals(retry.retryOf())) {
        ranAgain.remove(retry.startNodeId());
        ranAgain.add(0, retry.startNodeId());
        starts = List.copyOf(ranAgain);
        delaysWakeUp = wakeUps(log, starts);
      }
      for (NodeLogEntry entry : log) {
        if (entry.output() != null
            && RunResult.NOT_STARTED_FOR_FAILURE.equals(entry.output().get("skipped"))) {
          continue;
        }
        int ordinal =
            ordinalOf.computeIfAbsent(
                entry.nodeId(), node -> counts.merge(entry.nodeType(), 1, Integer::sum));
        if (ranAgain.contains(entry.nodeId())) {
          continue;
        }
        prior.put(
            entry.nodeType() + "_" + ordinal,
            RunResult.FAILED.equals(entry.status())
                ? Map.of("error", String.valueOf(entry.error()))
                : entry.output() == null ? Map.of() : entry.output());
        completed.add(entry.nodeId());
      }
    }
    // carried in the workflow's input, which Temporal takes only up to 2 MB: outputs no node reads
    // travel empty, keeping their names so that later nodes are numbered as before
    Set<String> read = CanvasRules.variablesRead(canvas);
    prior.replaceAll((variable, output) -> read.contains(variable) ? output : Map.of());
    Map<String, Integer> rerunOrdinals = new HashMap<>();
    starts.stream()
        .filter(ordinalOf::containsKey)
        .forEach(node -> rerunOrdinals.put(node, ordinalOf.get(node)));
    return new RetryContext(
        prior,
        completed,
        starts.subList(1, starts.size()),
        rerunOrdinals,
        delaysWakeUp,
        passedOver);
  }

  /**
   * The retried run's logged nodes to pass over, with the retry's own log (where its workflow
   * stood, if the server lost it) on top.
   */
  private static RunResume passOver(RunResume retried, RunResume own) {
    Map<String, RunResume.NodeOutcome> done = new HashMap<>(retried.done());
    if (own == null) {
      return new RunResume(done, Map.of(), 0);
    }
    done.putAll(own.done());
    return new RunResume(done, own.waiting(), own.lastSeq());
  }

  /**
   * When each delay among the retry's start nodes would have woken in the failed run: the {@code
   * until} that its entry, cut short by the failure, keeps.
   */
  private static Map<String, String> wakeUps(List<NodeLogEntry> log, List<String> starts) {
    Map<String, String> wakeUps = new HashMap<>();
    for (NodeLogEntry entry : log) {
      if (starts.contains(entry.nodeId())
          && entry.output() != null
          && entry.output().get("until") instanceof String until) {
        wakeUps.put(entry.nodeId(), until);
      }
    }
    return wakeUps;
  }
}
