package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The outgoing edges of a branching node (condition, wait_until, split): each is labelled with one
 * of the node's outcomes, no outcome twice, and the run goes on along the edges of the outcome it
 * reached.
 */
final class BranchEdges {

  private BranchEdges() {}

  /**
   * The problems of the node's outgoing edges: an edge without one of {@code labels}, two edges of
   * one label, and no edge at all (or, with {@code everyLabel}, a label without its edge).
   */
  static void check(
      CanvasNode node,
      Canvas canvas,
      List<String> labels,
      boolean everyLabel,
      List<CanvasProblem> problems) {
    Set<String> seen = new HashSet<>();
    for (CanvasEdge edge : canvas.outgoing(node.id())) {
      if (edge.label() == null || !labels.contains(edge.label())) {
        problems.add(
            CanvasProblem.edge(
                edge.id(),
                "label",
                "an edge leaving a " + node.type() + " is labelled " + either(labels, " or ")));
      } else if (!seen.add(edge.label())) {
        problems.add(
            CanvasProblem.edge(
                edge.id(),
                "label",
                node.type() + " " + node.id() + " has two '" + edge.label() + "' edges"));
      }
    }
    if (everyLabel) {
      labels.stream()
          .filter(label -> !seen.contains(label))
          .forEach(
              label ->
                  problems.add(
                      CanvasProblem.node(
                          node.id(),
                          null,
                          node.type()
                              + " "
                              + node.id()
                              + " has no edge for its branch '"
                              + label
                              + "'")));
    } else if (seen.isEmpty()) {
      problems.add(
          CanvasProblem.node(
              node.id(),
              null,
              "a " + node.type() + " needs a " + either(labels, " or a ") + " branch"));
    }
  }

  /** The edges of the outcome reached (and unlabelled ones). */
  static Predicate<CanvasEdge> of(Object outcome) {
    String branch = String.valueOf(outcome);
    return edge -> edge.label() == null || edge.label().equals(branch);
  }

  private static String either(List<String> labels, String lastJoin) {
    if (labels.size() < 2) {
      return String.join("", labels);
    }
    return String.join(", ", labels.subList(0, labels.size() - 1))
        + lastJoin
        + labels.get(labels.size() - 1);
  }
}
