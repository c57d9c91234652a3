package com.crmflow.api.flow;

import com.crmflow.api.web.FieldProblem;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * A flow's settings, stored with each canvas version beside its nodes and edges ({@code settings}
 * of the canvas body): a change of them is a new version, as any change of the canvas, and a run
 * keeps those of the version it started on.
 *
 * @param timezone the flow's time zone (IANA), or null: a send window in the contact's zone uses it
 *     for a contact without one, before the tenant's default
 * @param reenroll whether a record that has or had a run of the flow starts another: {@value
 *     #ALWAYS} (every trigger, event or enrollment starts one), {@value #NEVER} (one run per
 *     record, ever) or {@value #AFTER} (again once {@code reenrollAfterDays} have passed since its
 *     last run started)
 * @param reenrollAfterDays with {@value #AFTER}: the days, 1 to 3650
 */
@Schema(description = "the flow's settings, stored with its canvas version")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FlowSettings(
    @Schema(description = "IANA time zone of the flow, for send windows of contacts without one")
        String timezone,
    @Schema(
            description = "whether a record that has or had a run of the flow starts another",
            allowableValues = {ALWAYS, NEVER, AFTER},
            defaultValue = ALWAYS)
        String reenroll,
    @Schema(description = "with reenroll after: the days since the record's last run, 1 to 3650")
        Integer reenrollAfterDays) {

  public static final String ALWAYS = "always";
  public static final String NEVER = "never";
  public static final String AFTER = "after";

  /** The longest re-enrollment gap, in days (ten years). */
  public static final int MAX_REENROLL_AFTER_DAYS = 3650;

  /** Every setting at its default. */
  public static final FlowSettings DEFAULTS = new FlowSettings(null, ALWAYS, null);

  private static final Set<String> KEYS = Set.of("timezone", "reenroll", "reenroll_after_days");

  public FlowSettings {
    reenroll = reenroll == null ? ALWAYS : reenroll;
  }

  /** Whether a record's runs of the flow are limited (never, or only after some days). */
  public boolean limitsReenrollment() {
    return !ALWAYS.equals(reenroll);
  }

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
        problems.add(
            new FieldProblem(
                "settings." + key, "is not a setting of a flow " + new TreeSet<>(KEYS)));
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
    String reenroll = ALWAYS;
    JsonNode rule = json.get("reenroll");
    if (rule != null && !rule.isNull()) {
      if (!rule.isString() || !List.of(ALWAYS, NEVER, AFTER).contains(rule.stringValue())) {
        problems.add(new FieldProblem("settings.reenroll", "must be always, never or after"));
      } else {
        reenroll = rule.stringValue();
      }
    }
    Integer afterDays = null;
    JsonNode days = json.get("reenroll_after_days");
    if (days != null && !days.isNull()) {
      if (!days.isIntegralNumber()
          || !days.canConvertToLong()
          || days.asLong() < 1
          || days.asLong() > MAX_REENROLL_AFTER_DAYS) {
        problems.add(
            new FieldProblem(
                "settings.reenroll_after_days", "must be a whole number of days from 1 to 3650"));
      } else if (!AFTER.equals(reenroll)) {
        problems.add(
            new FieldProblem(
                "settings.reenroll_after_days", "goes with reenroll after, and only with it"));
      } else {
        afterDays = days.intValue();
      }
    } else if (AFTER.equals(reenroll)) {
      problems.add(
          new FieldProblem(
              "settings.reenroll_after_days", "is required with reenroll after (1 to 3650 days)"));
    }
    return new FlowSettings(timezone, reenroll, afterDays);
  }

  /** As stored: the settings that are not at their default. */
  Map<String, Object> stored() {
    Map<String, Object> stored = new LinkedHashMap<>();
    if (timezone != null) {
      stored.put("timezone", timezone);
    }
    if (limitsReenrollment()) {
      stored.put("reenroll", reenroll);
    }
    if (reenrollAfterDays != null) {
      stored.put("reenroll_after_days", reenrollAfterDays);
    }
    return stored;
  }

  /** The stored settings ({@link #stored}), null as the defaults. */
  public static FlowSettings fromStored(Map<String, Object> stored) {
    if (stored == null) {
      return DEFAULTS;
    }
    return new FlowSettings(
        (String) stored.get("timezone"),
        (String) stored.get("reenroll"),
        stored.get("reenroll_after_days") instanceof Number days ? days.intValue() : null);
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
