package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigCheck;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.FieldKind;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeDescriptor;
import java.util.List;

/** schedule_trigger: a run starts at the scheduled times (its schedule workflow starts it). */
final class ScheduleTriggerNode extends TriggerNode {

  static final List<String> SCHEDULE_TYPES = List.of("daily", "weekly", "monthly", "custom");

  @Override
  public NodeType type() {
    return NodeType.SCHEDULE_TRIGGER;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.SCHEDULE_TRIGGER,
            "Schedule trigger",
            NodeDescriptor.TRIGGERS,
            "clock",
            "starts the flow on a schedule",
            List.of(
                ConfigField.select("scheduleType", "Schedule", SCHEDULE_TYPES).asRequired(),
                ConfigField.of("time", "Time (HH:mm)", FieldKind.TIME).asRequired().help("24-hour"),
                ConfigField.of("timezone", "Time zone", FieldKind.TIMEZONE)
                    .asRequired()
                    .help("IANA, e.g. Europe/Berlin"),
                ConfigField.of("daysOfWeek", "Days of the week", FieldKind.DAYS)
                    .help("0 = Sunday .. 6 = Saturday; required for weekly"),
                ConfigField.of("dayOfMonth", "Day of the month", FieldKind.NUMBER)
                    .range(1, 31)
                    .check(ConfigCheck.DAY_OF_MONTH)
                    .help("for monthly; default 1, and a shorter month's last day"),
                ConfigField.of("customCron", "Cron (minute hour day month weekday)", FieldKind.CRON)
                    .help("5-field cron; required for custom")),
            NodeAccess.NONE,
            List.of())
        .withSummary(
            NodeDescriptor.Summary.of(" · ", "scheduleType", "time", "timezone", "customCron"));
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    if ("weekly".equals(node.config("scheduleType"))
        && (!(node.config("daysOfWeek") instanceof List<?> days) || days.isEmpty())) {
      problems.add(
          CanvasProblem.node(
              node.id(), "data.config.daysOfWeek", "is required for a weekly schedule"));
    }
    if ("custom".equals(node.config("scheduleType")) && node.config("customCron") == null) {
      problems.add(
          CanvasProblem.node(
              node.id(), "data.config.customCron", "is required for a custom schedule"));
    }
  }
}
