package com.crmflow.workflow.run;

import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunMove;
import com.crmflow.workflow.contract.RunMoveResult.MovedNode;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.contract.RunResume;
import com.crmflow.workflow.rules.CanvasRules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A run's moves to another version of its flow ({@link RunMove}): workflow code, one per run, used
 * by the interpreter. It knows which branches wait at a safe point, decides whether a move may
 * start, collects where each branch stopped once it has, and works out where each goes on.
 *
 * <p>A safe point is a node that waits and acts on nothing: a delay (with or without a send window)
 * or a wait_until; or the moment before a node, where a branch holds while its flow is paused (it
 * holds on at its node in the target version). A branch that wakes from its wait at the moment the
 * move comes (its timer fired in the same workflow task) stops before its next node, which has not
 * started either.
 */
final class RunMoves {

  /** The node types a branch may wait in while its run moves ({@link RunMove#SAFE_TYPES}). */
  static final Set<String> SAFE_TYPES = RunMove.SAFE_TYPES;

  /**
   * A branch that stopped for the move: where, its waiting entry (seq, start, deadline), or the
   * entry of the node it held before ({@code held}: seq only, the node has not started).
   */
  record Stopped(CanvasNode node, Integer seq, String startedAt, String until, boolean held) {

    /** A branch that waited in its node (its entry), or stopped before it (no entry). */
    Stopped(CanvasNode node, Integer seq, String startedAt, String until) {
      this(node, seq, startedAt, until, false);
    }

    /** A branch that held before its node for its flow's pause, its held entry's seq. */
    static Stopped heldBefore(CanvasNode node, int seq) {
      return new Stopped(node, seq, null, null, true);
    }

    /** Why the branch has no place in the target version, or null. */
    String unplaced(RunMove move) {
      return held ? move.unplacedBefore(node.id()) : RunMoves.unplaced(node, move);
    }
  }

  /** The nodes whose branch waits in them now, at a safe point. */
  private final Set<String> waiting = new java.util.HashSet<>();

  /** By node id, the deadline its running entry shows ("until"). */
  private final Map<String, String> until = new HashMap<>();

  /** Old watcher (node) ids of wait_untils that moved to a node with another id, to the new. */
  private final Map<String, String> watcherMoved = new HashMap<>();

  private RunMove asked;
  private final List<Stopped> stopped = new ArrayList<>();

  /**
   * The node's branch waits in it now (a safe point when its type is one of {@link #SAFE_TYPES}).
   */
  void waits(CanvasNode node) {
    if (SAFE_TYPES.contains(node.type())) {
      waiting.add(node.id());
    }
  }

  void doneWaiting(CanvasNode node) {
    waiting.remove(node.id());
  }

  /** The deadline the node's running entry shows, if it shows one. */
  void until(CanvasNode node, Map<String, Object> runningOutput) {
    if (runningOutput != null && runningOutput.get("until") instanceof String deadline) {
      until.put(node.id(), deadline);
    }
  }

  /** The deadline the node's running entry showed, or null. */
  String deadline(CanvasNode node) {
    return until.get(node.id());
  }

  /** A move was asked and the run has not gone on in the target version yet. */
  boolean asked() {
    return asked != null;
  }

  /**
   * Why the run cannot take the move now, or null when it can.
   *
   * @param branches the branches that walk the graph now
   * @param ending why the run is ending (failed, asked to end), or null
   * @param holding the nodes its held branches hold before (its flow paused), a safe point too
   * @param passed the nodes the run ran (by the id of the version it ran them in)
   */
  String refusal(
      RunMove move,
      RunInput input,
      Canvas canvas,
      int branches,
      String ending,
      Set<String> holding,
      Set<String> passed) {
    if (move == null || move.canvas() == null) {
      return "the move names no canvas";
    }
    if (input == null) {
      return "the run has not started";
    }
    if (move.toVersion() == input.canvasVersion()) {
      return null; // answered "already", changing nothing
    }
    if (ending != null) {
      return "the run is ending (" + ending + ")";
    }
    if (asked != null) {
      return "the run is moving already";
    }
    if (branches == 0 || waiting.size() + holding.size() < branches) {
      return "the run is not at a safe point: a node acts, or a branch is between nodes";
    }
    for (String nodeId : waiting) {
      String reason = unplaced(canvas.node(nodeId).orElseThrow(), move);
      if (reason != null) {
        return reason;
      }
    }
    for (String nodeId : holding) {
      String reason = move.unplacedBefore(nodeId);
      if (reason != null) {
        return reason;
      }
    }
    return rerun(move, holding, passed);
  }

  /**
   * Why a node the run passed would run again in the target version, or null: the target puts it
   * after a node the run goes on from (a call before a wait, moved after it), and a node that acted
   * (a call, an email) must not act twice because of a move.
   */
  private String rerun(RunMove move, Set<String> holding, Set<String> passed) {
    List<String> starts = new ArrayList<>();
    waiting.forEach(nodeId -> starts.add(move.target(nodeId)));
    holding.forEach(nodeId -> starts.add(move.target(nodeId)));
    Set<String> ahead = new java.util.HashSet<>(CanvasRules.reachableFrom(move.canvas(), starts));
    starts.forEach(ahead::remove);
    for (String nodeId : passed) {
      String there = move.target(nodeId);
      if (ahead.contains(there)) {
        return "node "
            + there
            + " already ran, and version "
            + move.toVersion()
            + " puts it after the node the run goes on from: it would run a second time";
      }
    }
    return null;
  }

  /** Why the node has no place in the target version, or null ({@link RunMove#unplaced}). */
  static String unplaced(CanvasNode node, RunMove move) {
    return move.unplaced(node.id(), node.type());
  }

  /** The move starts: the waiting branches wake ({@link AutomationRunWorkflowImpl#endWaiting}). */
  void ask(RunMove move) {
    asked = move;
    stopped.clear();
  }

  /** A branch stopped for the move, waiting in its node (its entry) or before it. */
  void stopped(Stopped branch) {
    stopped.add(branch);
  }

  /** Where the branches stopped, the first reason one of them has no place in the target. */
  String unplacedBranch(RunMove move) {
    for (Stopped branch : stopped) {
      String reason = branch.unplaced(move);
      if (reason != null) {
        return reason;
      }
    }
    return null;
  }

  List<Stopped> branches() {
    return List.copyOf(stopped);
  }

  /** By node id, when the wait each stopped branch waited in began (where known). */
  Map<String, String> waitsBegan() {
    Map<String, String> began = new HashMap<>();
    for (Stopped branch : stopped) {
      if (branch.startedAt() != null) {
        began.put(branch.node().id(), branch.startedAt());
      }
    }
    return began;
  }

  /** The move is over (taken or not): the run walks again. */
  void done() {
    asked = null;
    stopped.clear();
  }

  /**
   * Where each stopped branch goes on in the target version, and when a waiting node there wakes:
   * at the deadline it had, or with {@code recompute_delays} at its start plus the target's length
   * when that is sooner.
   */
  List<MovedNode> placed(RunMove move) {
    List<MovedNode> placed = new ArrayList<>();
    for (Stopped branch : stopped) {
      String target = move.target(branch.node().id());
      String deadline = branch.until();
      if (move.recomputeDelays() && deadline != null && branch.startedAt() != null) {
        CanvasNode there = move.canvas().node(target).orElseThrow();
        Duration length = delayLength(there);
        if (NodeType.DELAY.value().equals(there.type()) && there.config("window") == null) {
          Instant recomputed = Instant.parse(branch.startedAt()).plus(length);
          if (recomputed.isBefore(Instant.parse(deadline))) {
            deadline = NodeLogEntry.timestamp(recomputed);
          }
        }
      }
      placed.add(new MovedNode(branch.node().id(), target, branch.seq(), deadline));
    }
    return placed;
  }

  /**
   * The run's input in the target version: its canvas and version, and the waiting nodes as a
   * resumed run's ({@link RunResume#waiting}): they keep their entry, wake at their deadline and
   * remember when they began.
   *
   * @param began by node id of the version left, when each wait began
   */
  static RunInput inputIn(
      RunInput input,
      int version,
      Canvas canvas,
      List<MovedNode> nodes,
      Map<String, String> began,
      int lastSeq) {
    Map<String, RunResume.WaitingDelay> waitingThere = new LinkedHashMap<>();
    for (MovedNode node : nodes) {
      if (node.seq() != null) {
        waitingThere.put(
            node.toNode(),
            new RunResume.WaitingDelay(node.seq(), node.until(), began.get(node.fromNode())));
      }
    }
    return input.movedTo(version, canvas, new RunResume(Map.of(), waitingThere, lastSeq));
  }

  /**
   * The edges of the target version that lead into the part the run goes on in from outside it:
   * taken where the edge between the same nodes was taken in the version left (or, for an edge that
   * version had not, where its source ran); the nodes outside that part are passed.
   *
   * @param passed the nodes of the version left that ran (sources of a taken edge)
   */
  static void carryOver(
      Canvas from,
      Canvas to,
      RunMove move,
      Map<String, Boolean> edgeTaken,
      Set<String> settled,
      List<String> starts) {
    Map<String, Boolean> before = new HashMap<>(edgeTaken);
    Map<String, Boolean> takenBetween = new HashMap<>();
    Set<String> ran = new java.util.HashSet<>();
    for (CanvasEdge edge : from.edges()) {
      Boolean taken = before.get(edge.id());
      if (taken != null) {
        takenBetween.merge(
            move.target(edge.source()) + "\n" + move.target(edge.target()),
            taken,
            Boolean::logicalOr);
        if (taken) {
          ran.add(move.target(edge.source()));
        }
      }
    }
    Set<String> ahead = CanvasRules.reachableFrom(to, starts);
    edgeTaken.clear();
    settled.clear();
    for (CanvasEdge edge : to.edges()) {
      if (!ahead.contains(edge.source())) {
        Boolean same = takenBetween.get(edge.source() + "\n" + edge.target());
        edgeTaken.put(edge.id(), same != null ? same : ran.contains(edge.source()));
      }
    }
    to.nodes().stream().map(CanvasNode::id).filter(id -> !ahead.contains(id)).forEach(settled::add);
    settled.addAll(starts);
  }

  /** A wait_until that goes on at a node with another id: its events follow it. */
  void watcherMoved(String fromNode, String toNode, Map<String, List<RecordEvent>> events) {
    if (fromNode.equals(toNode)) {
      return;
    }
    watcherMoved.put(fromNode, toNode);
    List<RecordEvent> routed = events.remove(fromNode);
    if (routed != null) {
      routed.forEach(
          event ->
              events.computeIfAbsent(toNode, id -> new ArrayList<>()).add(watched(event, toNode)));
    }
  }

  /** An event routed to a watcher that moved goes to the node it waits at now. */
  RecordEvent routed(RecordEvent event) {
    String now = event.watcher() == null ? null : watcherMoved.get(event.watcher());
    return now == null ? event : watched(event, now);
  }

  private static RecordEvent watched(RecordEvent event, String watcher) {
    return new RecordEvent(event.runId(), watcher, event.seq(), event.eventId(), event.envelope());
  }

  private static Duration delayLength(CanvasNode node) {
    double hours =
        number(node.config("delayDays")) * 24
            + number(node.config("delayHours"))
            + number(node.config("delayMinutes")) / 60;
    return Duration.ofMillis(Math.round(hours * 3_600_000));
  }

  private static double number(Object value) {
    return value instanceof Number number ? number.doubleValue() : 0; // as the delay reads it
  }

  /** The log entry that says the run moved: from which version, to which, by which key. */
  static NodeLogEntry entry(
      int seq, String at, int fromVersion, RunMove move, List<MovedNode> nodes) {
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("moved_from_version", fromVersion);
    output.put("moved_to_version", move.toVersion());
    output.put("move_id", move.moveId());
    output.put("key_id", move.keyId());
    List<Map<String, Object>> where = new ArrayList<>();
    for (MovedNode node : nodes) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("from_node", node.fromNode());
      one.put("to_node", node.toNode());
      if (node.until() != null) {
        one.put("until", node.until());
      }
      where.add(one);
    }
    output.put("nodes", where);
    return new NodeLogEntry(
        seq, nodeId(move.toVersion()), MOVE_TYPE, RunResult.COMPLETED, at, at, output, null);
  }

  /** The node type of the entry that says the run moved. */
  static final String MOVE_TYPE = "move";

  /** The node id of that entry: no canvas node's, so a resumed run never takes it for a node. */
  static String nodeId(int toVersion) {
    return "move:v" + toVersion;
  }
}
