package com.crmflow.api.nodestats;

import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.CanvasSnapshot;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.flow.StoredNode;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.web.ApiException;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.contract.RunResult;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * A flow's counts per node, from {@code node_count}: each node of the current version and of every
 * older version runs still run on, with the runs waiting there now and those that passed it, failed
 * at it or skipped it (since a moment, or all time), the runs that met the flow's goal there, and a
 * split's runs per branch.
 */
@Service
class NodeStatsService {

  /**
   * The key under which node_count keeps the entries of runs that met their goal at a node
   * (skipped, "goal met"; V57's node_count_key).
   */
  private static final String GOAL_MET = "goal";

  /** The goals met at a node among its counts (a split's branch is "branch:" and its label). */
  private static final String GOAL_MET_KEY = "goal met";

  private final SequenceRepository sequences;
  private final CanvasRepository canvases;
  private final NodeCountRepository counts;

  /** How far back the per-hour counts reach (the retention pass deletes older hours). */
  private final CrmProperties.Retention retention;

  NodeStatsService(
      SequenceRepository sequences,
      CanvasRepository canvases,
      NodeCountRepository counts,
      CrmProperties properties) {
    this.sequences = sequences;
    this.canvases = canvases;
    this.counts = counts;
    this.retention = properties.retention();
  }

  /**
   * Where the counts of ended entries start for this {@code since}: the hour it falls in, or, past
   * the reach of the per-hour counts, the UTC day it falls in.
   */
  private Instant countedFrom(Instant since) {
    Instant hour = since.truncatedTo(ChronoUnit.HOURS);
    return retention.hourlyCountsExpire()
            && hour.isBefore(Instant.now().minus(retention.hourlyCountsKeep()))
        ? since.truncatedTo(ChronoUnit.DAYS)
        : hour;
  }

  NodeStats of(UUID tenantId, UUID sequenceId, Instant since) {
    Sequence sequence =
        sequences
            .find(tenantId, sequenceId)
            .orElseThrow(() -> ApiException.notFound("Sequence", sequenceId));
    Instant from = since == null ? null : countedFrom(since);
    List<NodeCountRepository.Count> counted =
        from == null ? counts.allTime(sequenceId) : counts.since(sequenceId, from);
    Map<Integer, Map<String, Map<String, Long>>> byVersion = new HashMap<>();
    long goalsMet = 0;
    for (NodeCountRepository.Count count : counted) {
      boolean goalMet = GOAL_MET.equals(count.branch()) && RunResult.SKIPPED.equals(count.status());
      if (goalMet) {
        goalsMet += count.n();
      }
      String key =
          goalMet
              ? GOAL_MET_KEY
              : count.branch().isEmpty() ? count.status() : "branch:" + count.branch();
      byVersion
          .computeIfAbsent(count.canvasVersion(), v -> new HashMap<>())
          .computeIfAbsent(count.nodeId(), n -> new HashMap<>())
          .merge(key, count.n(), Long::sum);
      if (!count.branch().isEmpty()) {
        byVersion
            .get(count.canvasVersion())
            .get(count.nodeId())
            .merge(count.status(), count.n(), Long::sum);
      }
    }
    Set<Integer> inFlight = new LinkedHashSet<>(counts.versionsInFlight(sequenceId));
    List<Integer> shown = new ArrayList<>();
    if (sequence.currentVersion() > 0) {
      shown.add(sequence.currentVersion());
    }
    inFlight.stream()
        .filter(version -> version != sequence.currentVersion())
        .sorted((a, b) -> b - a)
        .forEach(shown::add);
    List<NodeStats.VersionStats> versions = new ArrayList<>();
    for (int version : shown) {
      CanvasSnapshot canvas = canvases.versionOrEmpty(tenantId, sequenceId, version);
      Map<String, Map<String, Long>> nodes = byVersion.getOrDefault(version, Map.of());
      List<NodeStats.NodeCounts> nodeCounts = new ArrayList<>();
      for (StoredNode node : canvas.nodes()) {
        Map<String, Long> of = nodes.getOrDefault(node.id(), Map.of());
        nodeCounts.add(
            new NodeStats.NodeCounts(
                node.id(),
                node.type(),
                node.data() == null ? null : node.data().label(),
                of.getOrDefault(RunResult.RUNNING, 0L),
                of.getOrDefault(RunResult.COMPLETED, 0L),
                of.getOrDefault(RunResult.FAILED, 0L),
                of.getOrDefault(RunResult.SKIPPED, 0L) - of.getOrDefault(GOAL_MET_KEY, 0L),
                of.getOrDefault(GOAL_MET_KEY, 0L),
                branches(node, of)));
      }
      versions.add(
          new NodeStats.VersionStats(
              version,
              version == sequence.currentVersion(),
              inFlight.contains(version),
              nodeCounts));
    }
    return new NodeStats(sequenceId, sequence.currentVersion(), from, goalsMet, versions);
  }

  /** A split's branches in its order, each with the runs that went down it; null otherwise. */
  private static List<NodeStats.BranchCount> branches(StoredNode node, Map<String, Long> counted) {
    if (!NodeType.SPLIT.value().equals(node.type())
        || node.data() == null
        || !(node.data().config().get("branches") instanceof List<?> configured)) {
      return null;
    }
    List<NodeStats.BranchCount> branches = new ArrayList<>();
    for (Object each : configured) {
      if (each instanceof Map<?, ?> branch && branch.get("label") instanceof String label) {
        branches.add(new NodeStats.BranchCount(label, counted.getOrDefault("branch:" + label, 0L)));
      }
    }
    return branches;
  }
}
