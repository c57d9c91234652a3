package com.crmflow.api.runmove;

import com.crmflow.api.access.Caller;
import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.CanvasService;
import com.crmflow.api.flow.FlowScopes;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.RunMove;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * What {@code POST /api/sequences/{id}/runs/move} does: checks the request against the flow's
 * versions, answers a dry run from the run records and node log (never asking a workflow, so it
 * stays fast at any number of runs), or stores a move for {@link RunMoveJobs} to carry out.
 */
@Service
public class WaitingRunMoves {

  static final String BETWEEN_NODES = "between nodes: a node acts or the run goes on to its next";

  private final CanvasService canvases;
  private final NodeTypes nodeTypes;
  private final RunMoveRepository moves;
  private final RunMoveJobs runner;

  WaitingRunMoves(
      CanvasService canvases, NodeTypes nodeTypes, RunMoveRepository moves, RunMoveJobs runner) {
    this.canvases = canvases;
    this.nodeTypes = nodeTypes;
    this.moves = moves;
    this.runner = runner;
  }

  /** A request checked against the flow: its versions settled and the target's canvas. */
  record Plan(
      UUID sequenceId,
      int toVersion,
      List<Integer> fromVersions,
      Map<String, String> mapping,
      boolean recomputeDelays,
      Canvas target) {

    /** The move as a run takes it (for the run's own check of where it goes on). */
    RunMove asMove() {
      return new RunMove(null, toVersion, target, mapping, recomputeDelays, null);
    }

    /** The request as stored: the same one while its move is under way answers with it. */
    String request() {
      return toVersion
          + "|"
          + fromVersions
          + "|"
          + new java.util.TreeMap<>(mapping)
          + "|"
          + recomputeDelays;
    }
  }

  /**
   * The request checked: 404 for an unknown flow or version, 422 for a target that is not newer
   * than every source, a source the flow has not, or a mapping to a node the target has not; 403
   * when the caller does not hold the scopes the target version acts with.
   */
  Plan plan(Caller caller, UUID sequenceId, RunMoveRequest request) {
    UUID tenantId = caller.tenantId();
    List<Integer> versions =
        canvases.versions(tenantId, sequenceId).stream()
            .map(CanvasRepository.VersionSummary::version)
            .toList();
    if (versions.isEmpty()) {
      throw ApiException.unprocessable(
          "The flow has no saved version to move runs to.",
          List.of(new FieldProblem("to_version", "the flow has no saved version")));
    }
    int current = versions.stream().mapToInt(Integer::intValue).max().orElseThrow();
    int toVersion = request.toVersion() == null ? current : request.toVersion();
    if (!versions.contains(toVersion)) {
      throw ApiException.unprocessable(
          "Version " + toVersion + " of the flow does not exist.",
          List.of(
              new FieldProblem(
                  "to_version",
                  "version " + toVersion + " does not exist (latest: " + current + ")")));
    }
    List<Integer> fromVersions;
    if (request.fromVersions() == null) {
      fromVersions = versions.stream().filter(v -> v < toVersion).sorted().toList();
    } else {
      List<FieldProblem> problems = new ArrayList<>();
      for (int version : request.fromVersions()) {
        if (!versions.contains(version)) {
          problems.add(new FieldProblem("from_versions", "version " + version + " does not exist"));
        } else if (version >= toVersion) {
          problems.add(
              new FieldProblem(
                  "from_versions",
                  "version " + version + " is not older than to_version " + toVersion));
        }
      }
      if (!problems.isEmpty()) {
        throw ApiException.unprocessable(
            "Runs move only to a version newer than the ones they run.", problems);
      }
      fromVersions = request.fromVersions();
    }
    if (fromVersions.isEmpty()) {
      throw ApiException.unprocessable(
          "Runs move only to a newer version: version " + toVersion + " is the flow's first.",
          List.of(new FieldProblem("to_version", "no version is older than " + toVersion)));
    }
    Canvas target = canvases.version(tenantId, sequenceId, toVersion).toCanvas();
    List<FieldProblem> unmapped = new ArrayList<>();
    request
        .mapping()
        .forEach(
            (from, to) -> {
              if (target.node(to).isEmpty()) {
                unmapped.add(
                    new FieldProblem(
                        "mapping." + from, "node " + to + " is not in version " + toVersion));
              }
            });
    if (!unmapped.isEmpty()) {
      throw ApiException.unprocessable(
          "A mapping names a node that version " + toVersion + " has not.", unmapped);
    }
    FlowScopes.requireHeldBy(
        caller, target, "Moving runs to version " + toVersion + " of this flow", nodeTypes);
    return new Plan(
        sequenceId, toVersion, fromVersions, request.mapping(), request.recompute(), target);
  }

  /** Where a node's waiting runs stand and where they would go. */
  public record NodeStanding(
      String nodeId,
      String nodeType,
      long runs,
      long wouldMove,
      String toNode,
      long cannotMove,
      String reason) {}

  /** A source version's waiting runs, per node (node_id null: runs between nodes). */
  public record VersionStanding(int version, long runs, List<NodeStanding> nodes) {}

  /** The dry run's answer. Nothing changed. */
  public record DryRun(
      boolean dryRun,
      int toVersion,
      List<Integer> fromVersions,
      long wouldMove,
      long cannotMove,
      List<VersionStanding> versions) {}

  /** Where the runs of the plan's versions wait, and which would move where. */
  DryRun dryRun(Caller caller, Plan plan) {
    Map<Integer, List<NodeStanding>> byVersion = new LinkedHashMap<>();
    plan.fromVersions().forEach(version -> byVersion.put(version, new ArrayList<>()));
    long wouldMove = 0;
    long cannotMove = 0;
    for (RunMoveRepository.Standing at :
        moves.standing(caller.tenantId(), plan.sequenceId(), plan.fromVersions())) {
      String reason = reason(at, plan);
      String toNode = reason == null ? plan.mapping().getOrDefault(at.nodeId(), at.nodeId()) : null;
      NodeStanding node =
          new NodeStanding(
              at.nodeId(),
              at.nodeType(),
              at.runs(),
              reason == null ? at.runs() : 0,
              toNode,
              reason == null ? 0 : at.runs(),
              reason);
      byVersion.computeIfAbsent(at.version(), v -> new ArrayList<>()).add(node);
      wouldMove += node.wouldMove();
      cannotMove += node.cannotMove();
    }
    List<VersionStanding> versions = new ArrayList<>();
    byVersion.forEach(
        (version, nodes) ->
            versions.add(
                new VersionStanding(
                    version, nodes.stream().mapToLong(NodeStanding::runs).sum(), nodes)));
    return new DryRun(true, plan.toVersion(), plan.fromVersions(), wouldMove, cannotMove, versions);
  }

  /** Why runs waiting there cannot move, or null: as the run's own check would say. */
  private static String reason(RunMoveRepository.Standing at, Plan plan) {
    if (at.nodeId() == null) {
      return BETWEEN_NODES;
    }
    if (at.held()) {
      // held before its node by the flow's pause: the node has not started, it may go on at any
      // type
      return plan.asMove().unplacedBefore(at.nodeId());
    }
    if (!RunMove.SAFE_TYPES.contains(at.nodeType())) {
      return "in node "
          + at.nodeId()
          + " ("
          + at.nodeType()
          + "), which acts: runs move only"
          + " while they wait in a delay or a wait_until";
    }
    return plan.asMove().unplaced(at.nodeId(), at.nodeType());
  }

  /** A move and how far it is. */
  public record MoveView(
      UUID moveId,
      UUID sequenceId,
      int toVersion,
      List<Integer> fromVersions,
      Map<String, String> mapping,
      boolean recomputeDelays,
      String status,
      long runs,
      long moved,
      long skipped,
      Map<String, Long> skippedReasons,
      long pending,
      OffsetDateTime createdAt,
      OffsetDateTime finishedAt) {}

  /**
   * Stores the move for {@link RunMoveJobs}; the same request while its move is under way answers
   * with that move (a request sent twice starts one move).
   */
  MoveView start(Caller caller, Plan plan) {
    UUID tenantId = caller.tenantId();
    Optional<RunMoveJob> same = moves.running(tenantId, plan.sequenceId(), plan.request());
    if (same.isPresent()) {
      return view(same.get());
    }
    long runs = moves.waiting(tenantId, plan.sequenceId(), plan.fromVersions(), null);
    Optional<RunMoveJob> stored =
        moves.insert(
            tenantId,
            plan.sequenceId(),
            plan.toVersion(),
            plan.fromVersions(),
            plan.mapping(),
            plan.recomputeDelays(),
            caller.apiKeyId(),
            plan.request(),
            runs);
    stored.ifPresent(move -> runner.wake());
    return view(
        stored
            .or(() -> moves.running(tenantId, plan.sequenceId(), plan.request()))
            .orElseThrow(
                () ->
                    // the index keys a request by its md5: another request with the same one
                    ApiException.conflict(
                        "Another move of this flow is under way whose request has the same"
                            + " digest; ask again once it ends.")));
  }

  Optional<MoveView> find(UUID tenantId, UUID sequenceId, UUID moveId) {
    canvases.sequence(tenantId, sequenceId);
    return moves.find(tenantId, sequenceId, moveId).map(this::view);
  }

  /** Stops the move (no page starts after this) and answers how far it went. */
  Optional<MoveView> stop(UUID tenantId, UUID sequenceId, UUID moveId) {
    canvases.sequence(tenantId, sequenceId);
    Optional<RunMoveJob> move = moves.find(tenantId, sequenceId, moveId);
    move.ifPresent(found -> moves.stop(found.id()));
    return move.flatMap(found -> moves.find(tenantId, sequenceId, moveId)).map(this::view);
  }

  private MoveView view(RunMoveJob job) {
    long skipped = job.skipped().values().stream().mapToLong(Long::longValue).sum();
    long pending =
        RunMoveJob.RUNNING.equals(job.status())
            ? moves.waiting(job.tenantId(), job.sequenceId(), job.fromVersions(), job.afterRun())
            : 0;
    return new MoveView(
        job.id(),
        job.sequenceId(),
        job.toVersion(),
        job.fromVersions(),
        job.mapping(),
        job.recomputeDelays(),
        job.status(),
        job.runs(),
        moves.moved(job.id()),
        skipped,
        job.skipped(),
        pending,
        job.createdAt(),
        job.finishedAt());
  }
}
