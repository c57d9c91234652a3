package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.canvas.Position;
import java.util.Map;
import java.util.UUID;

/**
 * What one trigger type makes of a clause. Unlike a step, a trigger is read without a flow: the
 * clause parser also asks whether a clause named late in the prompt is a trigger, to move it first.
 */
interface TriggerBuilder {

  /** The trigger node the clause names, or null when it names none of this type. */
  CanvasNode read(Clause clause);

  /** A node with a fresh id and no position yet (the flow lays triggers out itself). */
  static CanvasNode node(NodeType type, String label, Map<String, Object> config) {
    return new CanvasNode(
        UUID.randomUUID().toString(),
        type.value(),
        new Position(0, 0),
        new NodeData(Words.capitalise(label), config));
  }
}
