package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.event.EventNames;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeDescriptor;
import java.util.List;

/** crm_event_trigger: a run starts for each CRM event of its type (that matches its filter). */
final class CrmEventTriggerNode extends TriggerNode {

  @Override
  public NodeType type() {
    return NodeType.CRM_EVENT_TRIGGER;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.CRM_EVENT_TRIGGER,
            "CRM event trigger",
            NodeDescriptor.TRIGGERS,
            "bolt",
            "starts the flow on a CRM event",
            List.of(
                ConfigField.select("eventType", "Event", EventNames.ALL).asRequired(),
                ConfigField.text("filterField", "Filter field")
                    .help(
                        "with filterValue: the event's record field that must match, e.g. lead_status"),
                ConfigField.text("filterValue", "Filter value")
                    .help("with filterField: the value it must hold, e.g. qualified")),
            NodeAccess.reads("{eventType}"),
            List.of())
        .withSummary(NodeDescriptor.Summary.of(" · ", "eventType", "filterField", "filterValue"));
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    if ((node.config("filterField") == null) != (node.config("filterValue") == null)) {
      problems.add(
          CanvasProblem.node(
              node.id(), "data.config.filterValue", "filterField and filterValue go together"));
    }
  }
}
