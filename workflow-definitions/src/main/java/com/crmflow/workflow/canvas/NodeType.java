package com.crmflow.workflow.canvas;

import java.util.Set;

/**
 * A node type's name and whether it starts a flow. The constants name the built-in types; what a
 * type is (its config, secrets, access, palette entry) is its executor's descriptor ({@code
 * com.crmflow.workflow.node.NodeDescriptor}), and the catalogs of executors know every type ({@code
 * com.crmflow.workflow.node.NodeCatalog}). The canvas itself knows only which types start a flow:
 * the three triggers the service fires (a webhook, a schedule, a CRM event), each with its own way
 * in, so a new type is an action or a branch and needs no edit here.
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

  private static final Set<String> TRIGGERS =
      Set.of(WEBHOOK_TRIGGER.value, SCHEDULE_TRIGGER.value, CRM_EVENT_TRIGGER.value);

  /** Whether nodes of the type of this name start a flow. */
  public static boolean isTrigger(String value) {
    return value != null && TRIGGERS.contains(value);
  }

  /** The names of the types that start a flow. */
  public static Set<String> triggerNames() {
    return TRIGGERS;
  }
}
