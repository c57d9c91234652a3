package com.crmflow.api.generate.rules;

import com.crmflow.api.generate.FlowGenerator;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.canvas.Position;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The flow read from a prompt so far: its nodes and edges, where the next step goes (the tail of
 * the main line, or of the open branch of a branching node), and the clauses found unclear. Steps
 * are laid out left to right (250 px apart), a branching node's first branch above and the others
 * below.
 */
final class FlowDraft {

  private final List<CanvasNode> nodes = new ArrayList<>();
  private final List<CanvasEdge> edges = new ArrayList<>();
  private final Map<String, Integer> typeCounts = new LinkedHashMap<>();
  private final List<FlowGenerator.Unclear> unclear = new ArrayList<>();
  private CanvasNode trigger;
  private String last; // tail of the main line, or of the current branch
  private String branching; // open branching node (condition, wait_until, split), if any
  private String branchLabel; // the branch of the open branching node the next step goes on
  private String firstLabel = "true"; // the open branching node's first branch
  private Deque<String> elseLabels = new ArrayDeque<>(); // what "otherwise" opens
  private int column;
  private Integer day; // the day of a "day 0 ..., day 3 ..." plan reached so far
  private RecordFields.Start start; // what the trigger's template {{trigger.*}} reads

  /**
   * @param automation whether the flow is an automation: its trigger's payload is then what {@code
   *     {{trigger.*}}} reads until a trigger says otherwise; a sequence's run has only its contact
   */
  FlowDraft(boolean automation) {
    this.start = automation ? RecordFields.Start.PAYLOAD : RecordFields.Start.NONE;
  }

  /** Whether nothing has been read yet: the clause may still name the trigger. */
  boolean atStart() {
    return trigger == null && last == null;
  }

  /** The flow starts with this trigger; an automation's fields are then read against it. */
  void startWith(CanvasNode trigger, boolean automation) {
    this.trigger = trigger;
    if (automation) {
      start = startOf(trigger);
    }
  }

  /** What {{trigger.*}} reads in a flow started by this trigger. */
  private static RecordFields.Start startOf(CanvasNode trigger) {
    if (trigger.type().equals(NodeType.SCHEDULE_TRIGGER.value())) {
      return RecordFields.Start.NONE;
    }
    Object event = trigger.data().config().get("eventType");
    if (event instanceof String name && name.startsWith("contact.")) {
      return RecordFields.Start.CONTACT;
    }
    if (event instanceof String name && name.startsWith("opportunity.")) {
      return RecordFields.Start.OPPORTUNITY;
    }
    return RecordFields.Start.PAYLOAD;
  }

  /** What {@code {{trigger.*}}} reads: the record a field named in a clause belongs to. */
  RecordFields.Start start() {
    return start;
  }

  /** Adds a step after the tail, on the open branch if there is one; returns its id. */
  String add(String type, String label, Map<String, Object> config) {
    String id = UUID.randomUUID().toString();
    int y = branchLabel == null ? 0 : (firstLabel.equals(branchLabel) ? -150 : 150);
    nodes.add(
        new CanvasNode(id, type, new Position(column++ * 250.0, y), new NodeData(label, config)));
    typeCounts.merge(type, 1, Integer::sum);
    if (last != null) {
      boolean fromBranching = last.equals(branching) && branchLabel != null;
      edges.add(
          new CanvasEdge(
              "e" + (edges.size() + 1),
              last,
              id,
              fromBranching ? CanvasEdge.CONDITIONAL : CanvasEdge.DEFAULT,
              fromBranching ? branchLabel : null));
    }
    last = id;
    return id;
  }

  /**
   * Adds a branching node: the steps after it go on its {@code first} branch, and each "otherwise"
   * opens the next of the {@code others}.
   */
  void addBranching(
      String type, String label, Map<String, Object> config, String first, List<String> others) {
    branchLabel = null;
    branching = add(type, label, config);
    branchLabel = first;
    firstLabel = first;
    elseLabels = new ArrayDeque<>(others);
  }

  /**
   * "Otherwise": the next steps go on the open branching node's next branch (or stay on the last
   * one when it has no more), starting in the column after it.
   */
  void openNextBranch() {
    if (branching != null) {
      branchLabel = elseLabels.isEmpty() ? branchLabel : elseLabels.poll();
      last = branching;
      column = columnAfter(branching);
    }
  }

  private int columnAfter(String nodeId) {
    for (CanvasNode node : nodes) {
      if (node.id().equals(nodeId)) {
        return (int) (node.position().x() / 250) + 1;
      }
    }
    return column;
  }

  int size() {
    return nodes.size();
  }

  /** The last node, if a window can be its: an email or a delay. */
  CanvasNode lastWindowable() {
    if (nodes.isEmpty()) {
      return null;
    }
    CanvasNode lastNode = nodes.get(nodes.size() - 1);
    return List.of(NodeType.EMAIL.value(), NodeType.DELAY.value()).contains(lastNode.type())
            && lastNode.data().config() != null
        ? lastNode
        : null;
  }

  /**
   * The template name of the flow's last http_request so far ({@code http_request_2}), whose
   * response later steps read; null when there is none.
   */
  String lastHttpRequest() {
    int count = typeCounts.getOrDefault(NodeType.HTTP_REQUEST.value(), 0);
    return count > 0 ? "http_request_" + count : null;
  }

  /**
   * What a step reads a response from: the last http_request's body ({@code http_request_2.body}),
   * or the trigger when there is none.
   */
  String responseOrTrigger() {
    String request = lastHttpRequest();
    return request != null ? request + ".body" : "trigger";
  }

  /** The day of a day plan reached so far, or null outside a day plan. */
  Integer day() {
    return day;
  }

  void day(int day) {
    this.day = day;
  }

  /** The clause could not be tied to one record and field: the flow is not used. */
  void unclear(String clause, String question) {
    unclear.add(new FlowGenerator.Unclear(clause, question));
  }

  List<FlowGenerator.Unclear> unclear() {
    return unclear;
  }

  /**
   * The flow as a canvas, or empty when no step was read. An automation starts with its trigger (a
   * webhook one if the prompt named none) left of the first step; a sequence has no trigger.
   */
  Optional<Canvas> canvas(boolean automation) {
    if (nodes.isEmpty()) {
      return Optional.empty();
    }
    List<CanvasNode> canvasNodes = new ArrayList<>();
    List<CanvasEdge> canvasEdges = new ArrayList<>(edges);
    if (automation) {
      CanvasNode first =
          trigger != null
              ? trigger
              : TriggerBuilder.node(NodeType.WEBHOOK_TRIGGER, "Webhook", new LinkedHashMap<>());
      first = new CanvasNode(first.id(), first.type(), new Position(-250, 0), first.data());
      canvasNodes.add(first);
      canvasEdges.add(
          0, new CanvasEdge("e0", first.id(), nodes.get(0).id(), CanvasEdge.DEFAULT, null));
    }
    canvasNodes.addAll(nodes);
    return Optional.of(new Canvas(canvasNodes, canvasEdges));
  }
}
