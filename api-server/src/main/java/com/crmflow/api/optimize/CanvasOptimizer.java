package com.crmflow.api.optimize;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutors;
import com.crmflow.workflow.rules.CanvasRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Rule-based suggestions for a canvas. Each rule looks at the graph and the node configs only; none
 * needs a network or a model.
 *
 * <ul>
 *   <li>two emails with no delay between them: add_step (high)
 *   <li>a delay under one hour: adjust_timing (medium); over 30 days: adjust_timing (low); two
 *       delays in a row: adjust_timing (low)
 *   <li>an email without subject or template: improve_content (high)
 *   <li>a node not reachable from the start: remove_step (medium); a logic or data node (delay,
 *       condition, data_transform: its descriptor's group) that leads nowhere: remove_step (low)
 *   <li>a condition (a branching node type) with one branch: add_step (medium)
 *   <li>an http_request with no condition after it and no continueOnFailure: add_condition (medium)
 *   <li>more than {@value #LONG_FLOW} steps and no condition: add_condition (low)
 *   <li>a sequence that starts with a delay: reorder (low)
 * </ul>
 */
public final class CanvasOptimizer {

  static final int LONG_FLOW = 5;
  private static final double HOUR_IN_DAYS = 1.0 / 24;

  private CanvasOptimizer() {}

  public static List<Suggestion> suggest(Canvas canvas, boolean automation) {
    return suggest(canvas, automation, NodeExecutors.catalog());
  }

  /**
   * The suggestions, with the node types of this catalog: a branching type (its descriptor's
   * outputs) is a condition to the rules, and a logic or data node (its palette group) has no
   * effect but on what follows it.
   */
  public static List<Suggestion> suggest(Canvas canvas, boolean automation, NodeCatalog catalog) {
    Predicate<CanvasNode> branching =
        n -> catalog.descriptor(n.type()).map(NodeDescriptor::branches).orElse(false);
    List<Suggestion> out = new ArrayList<>();
    for (CanvasNode node : canvas.nodes()) {
      String type = node.type();
      if (is(node, NodeType.EMAIL)) {
        emailRules(canvas, node, out);
      } else if (is(node, NodeType.DELAY)) {
        delayRules(canvas, node, out);
      } else if (branching.test(node)) {
        int branches = canvas.outgoing(node.id()).size();
        if (branches == 1) {
          out.add(
              new Suggestion(
                  "add_step",
                  "Handle the other branch",
                  "This condition has only one branch; contacts on the other side simply stop.",
                  "medium",
                  node.id()));
        }
      } else if (is(node, NodeType.HTTP_REQUEST)) {
        boolean guarded =
            Boolean.TRUE.equals(node.config("continueOnFailure"))
                || canvas.outgoing(node.id()).stream()
                    .anyMatch(e -> canvas.node(e.target()).map(branching::test).orElse(false));
        if (!guarded) {
          out.add(
              new Suggestion(
                  "add_condition",
                  "Check the response of " + label(node),
                  "Nothing checks whether this request succeeded; add a condition on its"
                      + " statusCode or set continueOnFailure.",
                  "medium",
                  node.id()));
        }
      }
      String group = catalog.descriptor(type).map(NodeDescriptor::group).orElse(null);
      if ((NodeDescriptor.LOGIC.equals(group) || NodeDescriptor.DATA.equals(group))
          && canvas.outgoing(node.id()).isEmpty()) {
        out.add(
            new Suggestion(
                "remove_step",
                "Remove the dead end " + label(node),
                "Nothing follows this " + type + ", so it has no effect.",
                "low",
                node.id()));
      }
    }
    unreachable(canvas, catalog, out);
    if (catalog.stepCount(canvas) > LONG_FLOW && canvas.nodes().stream().noneMatch(branching)) {
      String first = firstStep(canvas, catalog);
      out.add(
          new Suggestion(
              "add_condition",
              "Branch on engagement",
              "This flow has "
                  + catalog.stepCount(canvas)
                  + " steps and no condition; everyone gets every step, even contacts who"
                  + " already replied.",
              "low",
              first));
    }
    if (!automation) {
      String first = firstStep(canvas, catalog);
      canvas
          .node(first)
          .filter(n -> is(n, NodeType.DELAY))
          .ifPresent(
              n ->
                  out.add(
                      new Suggestion(
                          "reorder",
                          "Start with a message, then wait",
                          "The sequence opens with a delay; contacts hear nothing right after"
                              + " enrolling. Move the first message before it.",
                          "low",
                          n.id())));
    }
    return out;
  }

  private static void emailRules(Canvas canvas, CanvasNode node, List<Suggestion> out) {
    boolean hasSubject = node.config("subject") instanceof String s && !s.isBlank();
    if (!hasSubject && node.config("templateId") == null) {
      out.add(
          new Suggestion(
              "improve_content",
              "Give " + label(node) + " a subject",
              "This email has neither a subject nor a template.",
              "high",
              node.id()));
    }
    for (CanvasEdge edge : canvas.outgoing(node.id())) {
      canvas
          .node(edge.target())
          .filter(next -> is(next, NodeType.EMAIL))
          .ifPresent(
              next ->
                  out.add(
                      new Suggestion(
                          "add_step",
                          "Add a delay before " + label(next),
                          "Two emails go out back to back; a delay of a day or two reads better"
                              + " and lands better.",
                          "high",
                          next.id())));
    }
  }

  private static void delayRules(Canvas canvas, CanvasNode node, List<Suggestion> out) {
    double days = days(node);
    if (days > 0 && days < HOUR_IN_DAYS) {
      out.add(
          new Suggestion(
              "adjust_timing",
              "Lengthen " + label(node),
              "A delay under an hour barely spaces the steps; use at least a few hours.",
              "medium",
              node.id()));
    } else if (days > 30) {
      out.add(
          new Suggestion(
              "adjust_timing",
              "Shorten " + label(node),
              "A delay of more than 30 days risks the contact forgetting the conversation.",
              "low",
              node.id()));
    }
    for (CanvasEdge edge : canvas.outgoing(node.id())) {
      canvas
          .node(edge.target())
          .filter(next -> is(next, NodeType.DELAY))
          .ifPresent(
              next ->
                  out.add(
                      new Suggestion(
                          "adjust_timing",
                          "Merge " + label(node) + " and " + label(next),
                          "Two delays in a row are one longer delay.",
                          "low",
                          next.id())));
    }
  }

  private static void unreachable(Canvas canvas, NodeCatalog catalog, List<Suggestion> out) {
    List<CanvasNode> triggers = catalog.triggers(canvas);
    List<String> starts =
        !triggers.isEmpty()
            ? List.of(triggers.get(0).id())
            : CanvasRules.roots(canvas).stream().limit(1).toList();
    Set<String> reachable = CanvasRules.reachableFrom(canvas, starts);
    for (CanvasNode node : canvas.nodes()) {
      if (!reachable.contains(node.id())) {
        out.add(
            new Suggestion(
                "remove_step",
                "Connect or remove " + label(node),
                "No path from the start reaches this node, so it never runs.",
                "medium",
                node.id()));
      }
    }
  }

  private static String firstStep(Canvas canvas, NodeCatalog catalog) {
    List<CanvasNode> triggers = catalog.triggers(canvas);
    if (!triggers.isEmpty()) {
      return canvas.outgoing(triggers.get(0).id()).stream()
          .map(CanvasEdge::target)
          .findFirst()
          .orElse(triggers.get(0).id());
    }
    List<String> roots = CanvasRules.roots(canvas);
    return roots.isEmpty() ? canvas.nodes().get(0).id() : roots.get(0);
  }

  private static double days(CanvasNode node) {
    double days = node.config("delayDays") instanceof Number n ? n.doubleValue() : 0;
    double hours = node.config("delayHours") instanceof Number n ? n.doubleValue() : 0;
    return days + hours / 24;
  }

  private static boolean is(CanvasNode node, NodeType type) {
    return type.value().equals(node.type());
  }

  private static String label(CanvasNode node) {
    String label = node.label();
    return label == null || label.isBlank() ? "'" + node.type() + "'" : "'" + label + "'";
  }
}
