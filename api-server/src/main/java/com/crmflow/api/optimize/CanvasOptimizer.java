package com.crmflow.api.optimize;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeDescriptor.Advice;
import com.crmflow.workflow.registration.NodeExecutors;
import com.crmflow.workflow.rules.CanvasRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Rule-based suggestions for a canvas. Each rule looks at the graph, the node configs and the node
 * types' descriptors only; none needs a network or a model. What a rule knows of a type is its
 * descriptor's: its {@link Advice}, its fields' marks, its outputs and its palette group.
 *
 * <ul>
 *   <li>two messages ({@link Advice#MESSAGE}: email) with no wait between them: add_step (high)
 *   <li>a message with none of its content fields set (an email without subject or template):
 *       improve_content (high)
 *   <li>a wait ({@link Advice#WAIT}: delay, as long as its duration fields) under one hour:
 *       adjust_timing (medium); over 30 days: adjust_timing (low); two waits in a row:
 *       adjust_timing (low)
 *   <li>a node not reachable from the start: remove_step (medium); a logic or data node (delay,
 *       condition, data_transform: its descriptor's group) that leads nowhere: remove_step (low)
 *   <li>a condition (a branching node type) with one branch: add_step (medium)
 *   <li>a call ({@link Advice#CALL}: http_request) with no condition after it and no
 *       continueOnFailure: add_condition (medium)
 *   <li>more than {@value #LONG_FLOW} steps and no condition: add_condition (low)
 *   <li>a sequence that starts with a wait: reorder (low)
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
      NodeDescriptor descriptor = catalog.descriptor(type).orElse(null);
      if (advises(descriptor, Advice.MESSAGE)) {
        messageRules(canvas, node, descriptor, catalog, out);
      } else if (advises(descriptor, Advice.WAIT)) {
        waitRules(canvas, node, descriptor, catalog, out);
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
      } else if (advises(descriptor, Advice.CALL)) {
        boolean guarded =
            Boolean.TRUE.equals(node.config("continueOnFailure"))
                || canvas.outgoing(node.id()).stream()
                    .anyMatch(e -> canvas.node(e.target()).map(branching::test).orElse(false));
        if (!guarded) {
          out.add(
              new Suggestion(
                  "add_condition",
                  "Check the response of " + label(node),
                  "Nothing checks whether this call succeeded; add a condition on its answer"
                      + " or set continueOnFailure.",
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
          .filter(n -> advises(n, Advice.WAIT, catalog))
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

  private static void messageRules(
      Canvas canvas,
      CanvasNode node,
      NodeDescriptor descriptor,
      NodeCatalog catalog,
      List<Suggestion> out) {
    List<ConfigField> content = descriptor.fields().stream().filter(ConfigField::content).toList();
    if (!content.isEmpty() && content.stream().noneMatch(field -> isSet(node, field))) {
      out.add(
          new Suggestion(
              "improve_content",
              "Give " + label(node) + " a " + content.get(0).label().toLowerCase(Locale.ROOT),
              "This "
                  + descriptor.label().toLowerCase(Locale.ROOT)
                  + " has none of: "
                  + String.join(", ", content.stream().map(ConfigField::label).toList())
                  + ".",
              "high",
              node.id()));
    }
    for (CanvasEdge edge : canvas.outgoing(node.id())) {
      canvas
          .node(edge.target())
          .filter(next -> advises(next, Advice.MESSAGE, catalog))
          .ifPresent(
              next ->
                  out.add(
                      new Suggestion(
                          "add_step",
                          "Add a delay before " + label(next),
                          "Two messages go out back to back; a delay of a day or two reads"
                              + " better and lands better.",
                          "high",
                          next.id())));
    }
  }

  private static void waitRules(
      Canvas canvas,
      CanvasNode node,
      NodeDescriptor descriptor,
      NodeCatalog catalog,
      List<Suggestion> out) {
    double days = days(node, descriptor);
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
          .filter(next -> advises(next, Advice.WAIT, catalog))
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

  /** How long a wait lasts, in days: the sum of its duration fields. */
  private static double days(CanvasNode node, NodeDescriptor descriptor) {
    double seconds = 0;
    for (ConfigField field : descriptor.fields()) {
      if (field.unit() != null && node.config(field.key()) instanceof Number n) {
        seconds += n.doubleValue() * field.unit().getDuration().toSeconds();
      }
    }
    return seconds / Duration.ofDays(1).toSeconds();
  }

  private static boolean isSet(CanvasNode node, ConfigField field) {
    Object value = node.config(field.key());
    return value instanceof String text ? !text.isBlank() : value != null;
  }

  private static boolean advises(NodeDescriptor descriptor, Advice advice) {
    return descriptor != null && descriptor.advises(advice);
  }

  private static boolean advises(CanvasNode node, Advice advice, NodeCatalog catalog) {
    return advises(catalog.descriptor(node.type()).orElse(null), advice);
  }

  private static String label(CanvasNode node) {
    String label = node.label();
    return label == null || label.isBlank() ? "'" + node.type() + "'" : "'" + label + "'";
  }
}
