package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.event.EventNames;
import java.util.List;
import java.util.Map;

/** crm_event_trigger: a run starts for each CRM event of its type (that matches its filter). */
final class CrmEventTriggerNode extends TriggerNode {

  @Override
  public NodeType type() {
    return NodeType.CRM_EVENT_TRIGGER;
  }

  @Override
  public Map<String, ConfigCheck> configFields() {
    return Map.of(
        "eventType", ConfigCheck.oneOf(EventNames.ALL),
        "filterField", ConfigCheck.STRING,
        "filterValue", ConfigCheck.STRING);
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    NodeConfig.require(node, problems, "eventType");
    if ((node.config("filterField") == null) != (node.config("filterValue") == null)) {
      problems.add(
          CanvasProblem.node(
              node.id(), "data.config.filterValue", "filterField and filterValue go together"));
    }
  }
}
