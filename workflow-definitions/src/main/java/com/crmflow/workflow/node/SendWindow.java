package com.crmflow.workflow.node;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A send window: the days of the week (1 = Monday .. 7 = Sunday) and the hours ({@code from} to
 * {@code to}, local time) in which a delay may end and an email may go out, in a time zone: {@value
 * #CONTACT} (the contact's, else the flow's, else the tenant's) or an IANA zone. A window whose
 * {@code to} is not after its {@code from} runs past midnight, into the next day.
 *
 * <p>Pure and deterministic: {@link #firstOpen} depends on its arguments and the JVM's zone rules
 * only, so workflow code calls it with {@code Workflow.currentTimeMillis}.
 */
public record SendWindow(Set<DayOfWeek> days, LocalTime from, LocalTime to, String timezone) {

  /** The config key of a window. */
  public static final String KEY = "window";

  /** The zone of the run's contact, else the flow's, else the tenant's. */
  public static final String CONTACT = "contact";

  /** The window of a config value ({@code {days, from, to, timezone}}), or null when absent. */
  public static SendWindow of(Object value) {
    if (!(value instanceof Map<?, ?> window) || problem(value) != null) {
      return null;
    }
    Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
    for (Object day : (List<?>) window.get("days")) {
      days.add(DayOfWeek.of(((Number) day).intValue()));
    }
    return new SendWindow(
        days,
        LocalTime.parse((String) window.get("from")),
        LocalTime.parse((String) window.get("to")),
        (String) window.get("timezone"));
  }

  /** What is wrong with a config value as a window, or null. */
  static String problem(Object value) {
    if (!(value instanceof Map<?, ?> window)) {
      return "must be an object {days, from, to, timezone}";
    }
    for (Object key : window.keySet()) {
      if (!List.of("days", "from", "to", "timezone").contains(key)) {
        return "has no field " + key + " (days, from, to, timezone)";
      }
    }
    if (!(window.get("days") instanceof List<?> days) || days.isEmpty()) {
      return "needs days: an array of days of the week, 1 (Monday) to 7 (Sunday)";
    }
    Set<Object> seen = new java.util.HashSet<>();
    for (Object day : days) {
      if (!ConfigCheck.Checks.isInteger(day)
          || ((Number) day).intValue() < 1
          || ((Number) day).intValue() > 7) {
        return "needs days from 1 (Monday) to 7 (Sunday); found " + day;
      }
      if (!seen.add(((Number) day).intValue())) {
        return "lists day " + day + " twice";
      }
    }
    for (String key : List.of("from", "to")) {
      if (ConfigCheck.TIME.problem(window.get(key)) != null) {
        return "needs " + key + ": a time HH:mm (24-hour)";
      }
    }
    if (window.get("from").equals(window.get("to"))) {
      return "needs from and to apart (a window of no length never opens)";
    }
    Object zone = window.get("timezone");
    if (!CONTACT.equals(zone) && !ConfigCheck.Checks.isZone(zone)) {
      return "needs timezone: \"contact\" or an IANA time zone such as Europe/Berlin";
    }
    return null;
  }

  /** Whether the zone is the contact's (looked up when the node runs). */
  public boolean contactsZone() {
    return CONTACT.equals(timezone);
  }

  /**
   * The first moment at or after {@code at} inside the window, in {@code zone}: {@code at} itself
   * when the window is open then. A window's start or end that falls in a gap of the zone (the hour
   * a spring-forward day skips) is the first valid moment after it; one that falls in an overlap
   * (the hour a fall-back day repeats) is its first occurrence.
   */
  public Instant firstOpen(Instant at, ZoneId zone) {
    // a window that runs past midnight may still be open from the day before
    LocalDate day = at.atZone(zone).toLocalDate().minusDays(1);
    for (int i = 0; i < 9; i++, day = day.plusDays(1)) {
      if (!days.contains(day.getDayOfWeek())) {
        continue;
      }
      Instant opens = moment(day, from, zone);
      Instant closes = moment(to.isAfter(from) ? day : day.plusDays(1), to, zone);
      if (at.isBefore(closes)) {
        return at.isBefore(opens) ? opens : at;
      }
    }
    throw new IllegalStateException("a window with days opens within a week");
  }

  /** The moment a wall-clock time of a day is in the zone (see {@link #firstOpen}). */
  static Instant moment(LocalDate day, LocalTime time, ZoneId zone) {
    LocalDateTime local = day.atTime(time);
    ZoneOffsetTransition transition = zone.getRules().getTransition(local);
    if (transition != null && transition.isGap()) {
      return transition.getInstant();
    }
    return ZonedDateTime.ofLocal(local, zone, null).toInstant();
  }
}
