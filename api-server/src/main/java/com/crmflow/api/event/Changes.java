package com.crmflow.api.event;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What an update changed, for the data of *.updated events. */
public record Changes(List<String> changedFields, Map<String, Object> previous) {

  public static Changes between(Map<String, Object> before, Map<String, Object> after) {
    List<String> changed = new ArrayList<>();
    Map<String, Object> previous = new LinkedHashMap<>();
    for (var entry : after.entrySet()) {
      Object old = before.get(entry.getKey());
      if (!sameValue(old, entry.getValue())) {
        changed.add(entry.getKey());
        previous.put(entry.getKey(), old);
      }
    }
    return new Changes(changed, previous);
  }

  public boolean isEmpty() {
    return changedFields.isEmpty();
  }

  /** The event data: the record after the change plus changed_fields and previous values. */
  public Map<String, Object> withRecord(Map<String, Object> record) {
    Map<String, Object> data = new LinkedHashMap<>(record);
    data.put("changed_fields", changedFields);
    data.put("previous", previous);
    return data;
  }

  private static boolean sameValue(Object a, Object b) {
    if (a instanceof java.math.BigDecimal x && b instanceof java.math.BigDecimal y) {
      return x.compareTo(y) == 0;
    }
    return Objects.equals(a, b);
  }
}
