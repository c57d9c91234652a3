package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import java.util.List;
import java.util.Map;

/** schedule_trigger: a run starts at the scheduled times (its schedule workflow starts it). */
final class ScheduleTriggerNode extends TriggerNode {

  static final List<String> SCHEDULE_TYPES = List.of("daily", "weekly", "monthly", "custom");

  @Override
  public NodeType type() {
    return NodeType.SCHEDULE_TRIGGER;
  }

  @Override
  public Map<String, ConfigCheck> configFields() {
    return Map.of(
        "scheduleType", ConfigCheck.oneOf(SCHEDULE_TYPES),
        "time", ConfigCheck.TIME,
        "timezone", ConfigCheck.TIMEZONE,
        "daysOfWeek", ConfigCheck.DAYS_OF_WEEK,
        "dayOfMonth", ConfigCheck.DAY_OF_MONTH,
        "customCron", ConfigCheck.CRON);
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    NodeConfig.require(node, problems, "scheduleType", "time", "timezone");
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
