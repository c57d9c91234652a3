package com.crmflow.api.reenroll;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.event.EventNames;
import java.util.Map;

/**
 * The record a run of a flow is for, as its re-enrollment rule counts runs: a deal for a flow
 * started by a deal's events ({@code opportunity.*}: its {@code data.opportunity_id}), else a
 * contact (the payload's {@code contact_id}, or a CRM event's {@code data.contact_id}; an
 * enrollment's contact). A run without one (a schedule's, a webhook's without a contact_id) is for
 * no record and is never held back.
 */
public final class RunRecords {

  /**
   * The longest record id a payload may name: the record's runs are found by it in an index (the
   * re-enrollment rule's, a goal's watch), whose entries hold a few kilobytes at most.
   */
  public static final int MAX_ID_LENGTH = 255;

  private RunRecords() {}

  /**
   * Where a payload names a record by an id longer than {@link #MAX_ID_LENGTH} ({@code contact_id},
   * {@code data.opportunity_id}), or null when it names none.
   */
  public static String whereIdTooLong(Object payload) {
    if (!(payload instanceof Map<?, ?> body)) {
      return null;
    }
    for (String type : new String[] {EventNames.CONTACT, EventNames.OPPORTUNITY}) {
      String key = type + "_id";
      if (body.get(key) instanceof String id && id.length() > MAX_ID_LENGTH) {
        return key;
      }
      if (body.get("data") instanceof Map<?, ?> data
          && data.get(key) instanceof String id
          && id.length() > MAX_ID_LENGTH) {
        return "data." + key;
      }
    }
    return null;
  }

  /** Which record type the flow's runs are for. */
  static String typeOf(Canvas canvas) {
    for (CanvasNode node : canvas.nodes()) {
      if (NodeType.CRM_EVENT_TRIGGER.value().equals(node.type())
          && node.config("eventType") instanceof String event) {
        return EventNames.recordOf(event);
      }
    }
    return EventNames.CONTACT;
  }

  /** {@code contact:<id>} or {@code opportunity:<id>}, or null: the run is for no record. */
  public static String of(Canvas canvas, Object payload) {
    return of(typeOf(canvas), payload);
  }

  /** The payload's record of that type ({@code contact}, {@code opportunity}), or null. */
  public static String of(String type, Object payload) {
    if (!(payload instanceof Map<?, ?> body)) {
      return null;
    }
    String key = type + "_id";
    Object id = body.get(key);
    if (id == null && body.get("data") instanceof Map<?, ?> data) {
      id = data.get(key);
    }
    return id instanceof String text && !text.isBlank() ? type + ":" + text.trim() : null;
  }

  /** The same record in SQL, of {@code automation_run}'s trigger_payload. */
  static String sqlOf(Canvas canvas) {
    String key = typeOf(canvas) + "_id";
    return "'"
        + typeOf(canvas)
        + ":' || btrim(coalesce(trigger_payload ->> '"
        + key
        + "', trigger_payload -> 'data' ->> '"
        + key
        + "'))";
  }
}
