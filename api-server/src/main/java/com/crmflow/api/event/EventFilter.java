package com.crmflow.api.event;

import java.util.Map;
import java.util.Objects;

/**
 * The filter of a crm_event_trigger or a wait_until on an event's data: a field (a dot path into
 * {@code data}) and the value it must hold.
 */
public final class EventFilter {

  private EventFilter() {}

  /**
   * No field: every event matches. A field with a value: the field equals the value, compared as
   * text (numbers and booleans by their JSON text). A field alone: it is present and not empty.
   */
  public static boolean matches(Object field, Object wanted, Map<String, Object> data) {
    if (!(field instanceof String path) || path.isBlank()) {
      return true;
    }
    Object value = data;
    for (String part : path.trim().split("\\.")) {
      value = value instanceof Map<?, ?> map ? map.get(part) : null;
    }
    if (wanted == null || String.valueOf(wanted).isEmpty()) {
      return value != null && !String.valueOf(value).isEmpty();
    }
    return value != null && Objects.equals(String.valueOf(value), String.valueOf(wanted));
  }
}
