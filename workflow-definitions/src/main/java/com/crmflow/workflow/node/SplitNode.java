package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * split: sends each run down one of its branches, at random by the branches' percents, and the same
 * branch every time the run is replayed: the draw is a hash of the run's id and the node's, so it
 * is workflow code with no state (a retry goes on from the branch its failed run took, which its
 * node log holds).
 */
final class SplitNode implements NodeExecutor {

  /** The most branches a split has. */
  static final int MOST_BRANCHES = 20;

  @Override
  public NodeType type() {
    return NodeType.SPLIT;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.SPLIT,
            "Split",
            NodeDescriptor.LOGIC,
            "shuffle",
            "sends each run down one branch, at random by the branches' percents",
            List.of(
                ConfigField.of("branches", "Branches", FieldKind.BRANCHES)
                    .asRequired()
                    .help(
                        "[{label, percent}]: 2 to 20 branches, labels unique, percents summing to"
                            + " 100; each label is the label of its outgoing edge")),
            NodeAccess.NONE,
            List.of("{branches}"))
        .withSummary(NodeDescriptor.Summary.of(" / ", "branches").lead("Split"))
        .withMechanics("branch")
        .withOutput("branch", "the label of the branch taken");
  }

  /** What is wrong with a config value as a split's branches, or null. */
  static String problem(Object value) {
    if (!(value instanceof List<?> branches)) {
      return "must be an array of branches [{label, percent}]";
    }
    if (branches.size() < 2 || branches.size() > MOST_BRANCHES) {
      return "must hold 2 to " + MOST_BRANCHES + " branches";
    }
    Set<String> labels = new HashSet<>();
    double total = 0;
    for (Object each : branches) {
      if (!(each instanceof Map<?, ?> branch)
          || !(branch.get("label") instanceof String label)
          || label.isBlank()
          || label.length() > 100
          || !(branch.get("percent") instanceof Number percent)
          || branch.size() != 2) {
        return "must hold branches {label: a text of 1 to 100 characters, percent: a number}";
      }
      if (percent.doubleValue() <= 0 || percent.doubleValue() > 100) {
        return "gives branch "
            + label
            + " "
            + ConfigCheck.plain(percent.doubleValue())
            + "%: a percent is above 0 and at most 100";
      }
      if (!labels.add(label)) {
        return "names branch " + label + " twice";
      }
      total += percent.doubleValue();
    }
    if (Math.abs(total - 100) > 1e-9) {
      return "has percents that sum to " + ConfigCheck.plain(total) + ", not 100";
    }
    return null;
  }

  /** A well-formed split's labels and percents, in order; empty when its config is not one. */
  private static Map<String, Double> branches(CanvasNode node) {
    Map<String, Double> branches = new LinkedHashMap<>();
    if (problem(node.config("branches")) != null) {
      return branches;
    }
    for (Object each : (List<?>) node.config("branches")) {
      Map<?, ?> branch = (Map<?, ?>) each;
      branches.put((String) branch.get("label"), ((Number) branch.get("percent")).doubleValue());
    }
    return branches;
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    Map<String, Double> branches = branches(node);
    if (!branches.isEmpty()) {
      BranchEdges.check(node, canvas, new ArrayList<>(branches.keySet()), true, problems);
    }
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    Map<String, Double> branches = branches(node);
    if (branches.isEmpty()) {
      throw new NodeFailure("the split has no valid branches");
    }
    double draw = draw(run.input().runId(), node.id());
    double upTo = 0;
    String taken = null;
    for (Map.Entry<String, Double> branch : branches.entrySet()) {
      upTo += branch.getValue();
      taken = branch.getKey();
      if (draw < upTo) {
        break;
      }
    }
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("branch", taken);
    return output;
  }

  /**
   * The run's draw at the node, from 0 (included) to 100 (excluded): the first 8 bytes of the
   * SHA-256 of {@code <run id>:<node id>}, spread evenly. The same run and node draw the same.
   */
  static double draw(String runId, String nodeId) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest((runId + ":" + nodeId).getBytes(StandardCharsets.UTF_8));
      long bits = ByteBuffer.wrap(hash).getLong() >>> 11; // 53 bits: a double holds them exactly
      return bits / (double) (1L << 53) * 100;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  @Override
  public boolean waits() {
    return false;
  }

  /** The edge labelled with the branch the run took. */
  @Override
  public Predicate<CanvasEdge> edgesTaken(Map<String, Object> output) {
    return BranchEdges.of(output.get("branch"));
  }
}
