package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import java.util.Map;

/**
 * What the trigger node types share in a run: nothing of their own to do. The payload that started
 * the run is its {@code trigger} variable, so a trigger outputs nothing and waits on nothing.
 */
abstract class TriggerNode implements NodeExecutor {

  @Override
  public final Map<String, Object> execute(CanvasNode node, NodeRun run) {
    return Map.of();
  }

  @Override
  public final boolean waits() {
    return false;
  }
}
