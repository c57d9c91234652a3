package com.crmflow.workflow.canvas;

import com.crmflow.workflow.node.NodeExecutors;
import java.util.List;
import java.util.Optional;

/**
 * A node type's name and whether it starts a flow. The constants name the built-in types; what a
 * type is (its config, secrets, access, palette entry) is its executor's descriptor ({@code
 * com.crmflow.workflow.node.NodeDescriptor}), and the static look-ups here know the built-in types
 * ({@link NodeExecutors#catalog()}).
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

  public boolean isTrigger() {
    return trigger;
  }

  /** The built-in type of this name. */
  public static Optional<NodeType> of(String value) {
    return NodeExecutors.catalog().find(value).map(executor -> executor.type());
  }

  public static boolean isTrigger(String value) {
    return NodeExecutors.catalog().isTrigger(value);
  }

  /** The built-in types' names, triggers first. */
  public static List<String> names() {
    return NodeExecutors.catalog().names();
  }
}
