package com.crmflow.workflow.canvas;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The node types of the spec. */
public enum NodeType {
  EMAIL("email", false),
  DELAY("delay", false),
  CONDITION("condition", false),
  WEBHOOK_TRIGGER("webhook_trigger", true),
  HTTP_REQUEST("http_request", false),
  CHAT_MESSAGE("chat_message", false),
  CRM_UPDATE("crm_update", false),
  CREATE_RECORD("create_record", false),
  DATA_TRANSFORM("data_transform", false),
  SCHEDULE_TRIGGER("schedule_trigger", true),
  CRM_EVENT_TRIGGER("crm_event_trigger", true);

  private final String value;
  private final boolean trigger;

  NodeType(String value, boolean trigger) {
    this.value = value;
    this.trigger = trigger;
  }

  public String value() {
    return value;
  }

  public boolean isTrigger() {
    return trigger;
  }

  public static Optional<NodeType> of(String value) {
    return Arrays.stream(values()).filter(t -> t.value.equals(value)).findFirst();
  }

  public static boolean isTrigger(String value) {
    return of(value).map(NodeType::isTrigger).orElse(false);
  }

  public static List<String> names() {
    return Arrays.stream(values()).map(NodeType::value).toList();
  }
}
