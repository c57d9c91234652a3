package com.crmflow.workflow.canvas;

/**
 * A node type's name and whether it starts a flow, as its executor's descriptor declares them
 * ({@code com.crmflow.workflow.node.NodeDescriptor}). The constants name the built-in types for the
 * code that treats one of them apart (a webhook's path, a schedule's timer); whether a type named
 * in a canvas starts a flow is asked of a catalog of executors ({@code
 * com.crmflow.workflow.node.NodeCatalog#isTrigger}), the one place that knows every type, so the
 * canvas model keeps no list of its own.
 *
 * @param value the type's name in a canvas ({@code http_request})
 * @param trigger whether a node of the type starts a flow
 */
public record NodeType(String value, boolean trigger) {

  public static final NodeType EMAIL = new NodeType("email", false);
  public static final NodeType DELAY = new NodeType("delay", false);
  public static final NodeType CONDITION = new NodeType("condition", false);
  public static final NodeType WEBHOOK_TRIGGER = new NodeType("webhook_trigger", true);
  public static final NodeType HTTP_REQUEST = new NodeType("http_request", false);
  public static final NodeType CHAT_MESSAGE = new NodeType("chat_message", false);
  public static final NodeType CRM_UPDATE = new NodeType("crm_update", false);
  public static final NodeType CREATE_RECORD = new NodeType("create_record", false);
  public static final NodeType DATA_TRANSFORM = new NodeType("data_transform", false);
  public static final NodeType SCHEDULE_TRIGGER = new NodeType("schedule_trigger", true);
  public static final NodeType CRM_EVENT_TRIGGER = new NodeType("crm_event_trigger", true);
  public static final NodeType WAIT_UNTIL = new NodeType("wait_until", false);
  public static final NodeType SPLIT = new NodeType("split", false);

  public boolean isTrigger() {
    return trigger;
  }
}
