package com.crmflow.api.canvas;

import com.crmflow.api.web.FieldProblem;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A flow's settings, stored with each canvas version beside its nodes and edges ({@code settings}
 * of the canvas body): a change of them is a new version, as any change of the canvas, and a run
 * keeps those of the version it started on.
 *
 * @param timezone the flow's time zone (IANA), or null: a send window in the contact's zone uses it
 *     for a contact without one, before the tenant's default
 */
@Schema(description = "the flow's settings, stored with its canvas version")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FlowSettings(
    @Schema(description = "IANA time zone of the flow, for send windows of contacts without one")
        String timezone) {

  /** Every setting at its default. */
  public static final FlowSettings DEFAULTS = new FlowSettings(null);

  private static final Set<String> KEYS = Set.of("timezone");

  /** The settings a body sends ({@code settings}), or null when it sends none; problems named. */
  static FlowSettings read(JsonNode json, List<FieldProblem> problems) {
    if (json == null) {
      return null;
    }
    if (json.isNull()) {
      return DEFAULTS;
    }
    if (!json.isObject()) {
      problems.add(new FieldProblem("settings", "must be an object"));
      return null;
    }
    for (String key : json.propertyNames()) {
      if (!KEYS.contains(key)) {
        problems.add(new FieldProblem("settings." + key, "is not a setting of a flow " + KEYS));
      }
    }
    String timezone = null;
    JsonNode zone = json.get("timezone");
    if (zone != null && !zone.isNull()) {
      if (!zone.isString() || !isZone(zone.stringValue())) {
        problems.add(
            new FieldProblem(
                "settings.timezone", "must be an IANA time zone such as Europe/Berlin"));
      } else {
        timezone = zone.stringValue();
      }
    }
    return new FlowSettings(timezone);
  }

  /** As stored: the settings that are set. */
  Map<String, Object> stored() {
    Map<String, Object> stored = new LinkedHashMap<>();
    if (timezone != null) {
      stored.put("timezone", timezone);
    }
    return stored;
  }

  /** The stored settings ({@link #stored}), null as the defaults. */
  static FlowSettings fromStored(Map<String, Object> stored) {
    if (stored == null) {
      return DEFAULTS;
    }
    return new FlowSettings((String) stored.get("timezone"));
  }

  private static boolean isZone(String value) {
    if (!(value.contains("/") || value.equals("UTC"))) {
      return false;
    }
    try {
      ZoneId.of(value);
      return true;
    } catch (DateTimeException e) {
      return false;
    }
  }
}
