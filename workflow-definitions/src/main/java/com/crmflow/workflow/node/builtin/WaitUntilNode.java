package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.action.RecordWatch;
import com.crmflow.workflow.action.RecordWatchActivities;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.event.EventNames;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.DryRuns;
import com.crmflow.workflow.node.FlowGoal;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeActivities;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeConfig;
import com.crmflow.workflow.node.NodeCut;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeEnded;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeFailure;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.template.TemplateResolver;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * wait_until: waits until a CRM event about the run's record arrives (its contact's, or for a
 * deal's events its deal's), or until its timeout. The run goes on along the edge labelled {@value
 * #MET} or {@value #TIMEOUT}; a met wait's output holds the event.
 *
 * <p>The node enters a watch of the record in api-server's index ({@link RecordWatchActivities}),
 * which routes each matching event to the run as a signal, once and in the outbox's order; it takes
 * the watch out when it stops waiting. A run resumed where its node log stood waits until its
 * logged deadline, and its watch answers with the events routed to it before.
 */
final class WaitUntilNode implements NodeExecutor {

  @Override
  public List<NodeActivity<?>> activities() {
    return List.of(FlowGoal.ACTIVITY);
  }

  static final String MET = "met";
  static final String TIMEOUT = "timeout";

  /** The longest wait: a year. */
  static final Duration LONGEST = Duration.ofDays(365);

  @Override
  public NodeType type() {
    return NodeType.WAIT_UNTIL;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.WAIT_UNTIL,
            "Wait until",
            NodeDescriptor.LOGIC,
            "clock",
            "waits for a CRM event about the run's record, or gives up after its timeout",
            List.of(
                ConfigField.select("eventType", "Event", EventNames.ALL)
                    .asRequired()
                    .help(
                        "about the run's contact (a deal's events: the run's deal, from its"
                            + " trigger)"),
                ConfigField.text("filterField", "Filter field")
                    .help(
                        "with filterValue: the event's record field that must match, e.g."
                            + " lifecycle_stage"),
                ConfigField.text("filterValue", "Filter value")
                    .help("with filterField: the value it must hold, e.g. customer"),
                ConfigField.number("timeoutDays", "Timeout days", 0, 365)
                    .duration(ChronoUnit.DAYS)
                    .help("the timeout's fields together above 0 and at most a year"),
                ConfigField.number("timeoutHours", "Timeout hours", 0, 8760)
                    .duration(ChronoUnit.HOURS),
                ConfigField.number("timeoutMinutes", "Timeout minutes", 0, 525600)
                    .duration(ChronoUnit.MINUTES)),
            NodeAccess.reads("{eventType}"),
            List.of(MET, TIMEOUT))
        .withSummary(
            NodeDescriptor.Summary.of(
                    " · ",
                    "eventType",
                    "filterField",
                    "filterValue",
                    "timeoutDays",
                    "timeoutHours",
                    "timeoutMinutes")
                .lead("Until"))
        .withMechanics("outcome", "until")
        .withOutput(
            "outcome",
            "met or timeout: the branch taken",
            "event",
            "the event that met it (its type, record and data)",
            "until",
            "the deadline it waited for, when the timeout ended it");
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    if ((node.config("filterField") == null) != (node.config("filterValue") == null)) {
      problems.add(
          CanvasProblem.node(
              node.id(), "data.config.filterValue", "filterField and filterValue go together"));
    }
    Duration timeout = timeout(node);
    if (timeout.isZero()) {
      problems.add(
          CanvasProblem.node(
              node.id(),
              "data.config.timeoutDays",
              "a wait_until needs a timeout: timeoutDays, timeoutHours or timeoutMinutes above 0"));
    } else if (timeout.compareTo(LONGEST) > 0) {
      problems.add(
          CanvasProblem.node(
              node.id(), "data.config.timeoutDays", "a wait_until's timeout is at most a year"));
    }
    BranchEdges.check(node, canvas, descriptor().outputs(), false, problems);
  }

  /** "until" is the deadline: operators (and a resumed run) see when it gives up. */
  @Override
  public Map<String, Object> runningOutput(CanvasNode node, NodeRun run) {
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("until", NodeLogEntry.timestamp(deadline(node, run)));
    output.put("event", NodeConfig.string(node, "eventType"));
    return output;
  }

  /**
   * In a test run the node neither watches nor waits: it takes its {@value #TIMEOUT} edge, and its
   * output says the wait it would have made.
   */
  @Override
  public Map<String, Object> wouldDo(CanvasNode node, NodeRun run) {
    Map<String, Object> more = new LinkedHashMap<>();
    more.put("outcome", TIMEOUT);
    more.put("event", NodeConfig.string(node, "eventType"));
    return DryRuns.wouldWait(
        "until " + NodeConfig.string(node, "eventType") + ", at most " + describe(node), more);
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    String event = NodeConfig.string(node, "eventType");
    String recordType = EventNames.recordOf(event);
    String recordId = recordId(recordType, run);
    if (recordId == null) {
      throw new NodeFailure(
          "the run has no "
              + recordType
              + " whose "
              + event
              + " events it could wait for ("
              + (EventNames.CONTACT.equals(recordType)
                  ? "its trigger names no contact_id"
                  : "its trigger names no opportunity_id")
              + ")");
    }
    Instant deadline = deadline(node, run);
    RecordWatch watch =
        new RecordWatch(
            run.input().tenantId(),
            run.input().runId(),
            Workflow.getInfo().getWorkflowId(),
            node.id(),
            recordType,
            recordId,
            event,
            NodeConfig.string(node, "filterField"),
            node.config("filterValue") == null ? null : String.valueOf(node.config("filterValue")));
    run.routed(
        node,
        NodeActivities.call(FlowGoal.ACTIVITY, node, run, index -> index.watch(watch), watch));
    Duration left = Duration.between(Instant.ofEpochMilli(Workflow.currentTimeMillis()), deadline);
    RecordEvent met = first(event, run.recordEvents(node));
    if (met == null && left.compareTo(Duration.ZERO) > 0) {
      WaitTimer waiting =
          WaitTimer.start(left, "wait until " + event + " · at most " + describe(node));
      Promise<Void> timer = waiting.timer();
      Workflow.await(
          () ->
              timer.isCompleted()
                  || first(event, run.recordEvents(node)) != null
                  || run.failed()
                  || run.endAsked());
      if (!timer.isCompleted() && first(event, run.recordEvents(node)) == null && !run.failed()) {
        endWaiting(run, waiting.scope());
        Workflow.await(
            () ->
                timer.isCompleted()
                    || first(event, run.recordEvents(node)) != null
                    || run.failed());
      }
      met = first(event, run.recordEvents(node));
      if (met == null && !timer.isCompleted()) {
        waiting.scope().cancel();
        unwatch(node, run);
        // the run failed in another branch: a retry waits until the same deadline
        throw new NodeCut(run.branchesSettle() ? NodeLogEntry.timestamp(deadline) : null);
      }
      if (!timer.isCompleted()) {
        waiting.scope().cancel();
      }
    }
    unwatch(node, run);
    Map<String, Object> output = new LinkedHashMap<>();
    if (met != null) {
      output.put("outcome", MET);
      output.put("event", met.envelope());
    } else {
      output.put("outcome", TIMEOUT);
      output.put("until", NodeLogEntry.timestamp(deadline));
    }
    return output;
  }

  /** The edges of the outcome: {@value #MET} or {@value #TIMEOUT}. */
  @Override
  public Predicate<CanvasEdge> edgesTaken(Map<String, Object> output) {
    return BranchEdges.of(output.get("outcome"));
  }

  /**
   * The run was asked to end while it waited: the deadline's timer is cancelled and the node ends
   * ({@link NodeEnded}); the run's end takes it out of the record index.
   */
  private static void endWaiting(NodeRun run, CancellationScope waiting) {
    try {
      run.endWaiting();
    } catch (NodeEnded ended) {
      waiting.cancel();
      throw ended;
    }
  }

  private static void unwatch(CanvasNode node, NodeRun run) {
    String runId = run.input().runId();
    NodeActivities.call(
        FlowGoal.ACTIVITY,
        node,
        run,
        index -> {
          index.unwatch(runId, node.id());
          return null;
        },
        runId,
        node.id());
  }

  /** The first event of the awaited name (the index routes no other). */
  private static RecordEvent first(String event, List<RecordEvent> events) {
    return events.stream().filter(e -> event.equals(e.event())).findFirst().orElse(null);
  }

  /**
   * The run's record of that type: its contact, or its deal as its trigger names it ({@code
   * opportunity_id}, or a CRM event's {@code data.opportunity_id}).
   */
  private static String recordId(String recordType, NodeRun run) {
    if (EventNames.CONTACT.equals(recordType)) {
      return run.contactId();
    }
    for (String path : List.of("trigger.opportunity_id", "trigger.data.opportunity_id")) {
      if (TemplateResolver.lookup(run.scope(), path) instanceof String id && !id.isBlank()) {
        return id;
      }
    }
    return null;
  }

  /**
   * When the wait gives up: at the time logged for it before (a resumed run, a retry whose run
   * failed while it waited), else its timeout from now.
   */
  private static Instant deadline(CanvasNode node, NodeRun run) {
    String logged = run.input().loggedWakeUp(node);
    return logged != null
        ? Instant.parse(logged)
        : Instant.ofEpochMilli(Workflow.currentTimeMillis()).plus(timeout(node));
  }

  static Duration timeout(CanvasNode node) {
    double minutes =
        NodeConfig.number(node.config("timeoutDays")) * 24 * 60
            + NodeConfig.number(node.config("timeoutHours")) * 60
            + NodeConfig.number(node.config("timeoutMinutes"));
    return Duration.ofMillis(Math.round(minutes * 60_000));
  }

  private static String describe(CanvasNode node) {
    return NodeDurations.describe(
        NodeConfig.number(node.config("timeoutDays")),
        NodeConfig.number(node.config("timeoutHours")),
        NodeConfig.number(node.config("timeoutMinutes")));
  }
}
