package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigCheck;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.FieldKind;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeFailure;
import com.crmflow.workflow.node.NodeRun;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * split: sends each run down one of its branches, at random by the branches' percents, and the same
 * branch every time the run is replayed: the draw is a hash of the run's id and the node's, so it
 * is workflow code with no state (a retry goes on from the branch its failed run took, which its
 * node log holds).
 */
final class SplitNode implements NodeExecutor {

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

  /** A well-formed split's labels and percents, in order; empty when its config is not one. */
  private static Map<String, Double> branches(CanvasNode node) {
    Map<String, Double> branches = new LinkedHashMap<>();
    if (ConfigCheck.BRANCHES.problem(node.config("branches")) != null) {
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
