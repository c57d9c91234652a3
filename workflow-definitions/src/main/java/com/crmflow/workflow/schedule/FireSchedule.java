package com.crmflow.workflow.schedule;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * When a schedule_trigger fires: pure computation (safe in workflow code) on wall-clock times in
 * the schedule's zone.
 *
 * <p>daily fires at {@code time}; weekly at {@code time} on {@code daysOfWeek} (0 = Sunday);
 * monthly at {@code time} on {@code dayOfMonth} (default 1; in shorter months on their last day);
 * custom whenever the 5-field {@code customCron} matches (cron-utils, Unix flavour; {@code time} is
 * not used).
 *
 * <p>Daylight saving: a wall-clock time that does not exist on a spring-forward day fires shifted
 * by the gap (02:30 in Berlin → 03:30); a time that occurs twice on a fall-back day fires once, at
 * its first occurrence. Every scheduled day therefore fires exactly once.
 */
public final class FireSchedule {

  private static final CronParser CRON =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  private final String type;
  private final LocalTime time;
  private final ZoneId zone;
  private final Set<DayOfWeek> days;
  private final int dayOfMonth;
  private final ExecutionTime cron;

  private FireSchedule(
      String type,
      LocalTime time,
      ZoneId zone,
      Set<DayOfWeek> days,
      int dayOfMonth,
      ExecutionTime cron) {
    this.type = type;
    this.time = time;
    this.zone = zone;
    this.days = days;
    this.dayOfMonth = dayOfMonth;
    this.cron = cron;
  }

  /** From a schedule_trigger node's config (validated by CanvasRules when it was saved). */
  public static FireSchedule of(Map<String, Object> config) {
    String type = String.valueOf(config.get("scheduleType"));
    ZoneId zone = ZoneId.of(String.valueOf(config.get("timezone")));
    LocalTime time =
        config.get("time") instanceof String t ? LocalTime.parse(t) : LocalTime.MIDNIGHT;
    Set<DayOfWeek> days = new TreeSet<>();
    if (config.get("daysOfWeek") instanceof List<?> list) {
      for (Object day : list) {
        int n = ((Number) day).intValue();
        days.add(n == 0 ? DayOfWeek.SUNDAY : DayOfWeek.of(n));
      }
    }
    int dayOfMonth = config.get("dayOfMonth") instanceof Number n ? n.intValue() : 1;
    ExecutionTime cron =
        "custom".equals(type)
            ? ExecutionTime.forCron(CRON.parse(String.valueOf(config.get("customCron")).trim()))
            : null;
    return new FireSchedule(type, time, zone, days, dayOfMonth, cron);
  }

  /** The first fire strictly after {@code after}. */
  public Instant nextFireAfter(Instant after) {
    LocalDateTime cursor = LocalDateTime.ofInstant(after, zone);
    // a handful of rounds at most: only a fall-back day's repeated hour can send us around again
    for (int round = 0; round < 1_000; round++) {
      LocalDateTime wall = nextWallClockAfter(cursor);
      Instant fire = ZonedDateTime.ofLocal(wall, zone, null).toInstant();
      if (fire.isAfter(after)) {
        return fire;
      }
      cursor = wall;
    }
    throw new IllegalStateException("no fire time found after " + after);
  }

  /** The next matching wall-clock time strictly after {@code cursor}, ignoring offsets. */
  private LocalDateTime nextWallClockAfter(LocalDateTime cursor) {
    return switch (type) {
      case "daily" -> {
        LocalDateTime today = cursor.toLocalDate().atTime(time);
        yield today.isAfter(cursor) ? today : today.plusDays(1);
      }
      case "weekly" -> {
        LocalDate day = cursor.toLocalDate();
        for (int i = 0; i <= 7; i++, day = day.plusDays(1)) {
          LocalDateTime candidate = day.atTime(time);
          if (days.contains(day.getDayOfWeek()) && candidate.isAfter(cursor)) {
            yield candidate;
          }
        }
        throw new IllegalStateException("a weekly schedule without days");
      }
      case "monthly" -> {
        YearMonth month = YearMonth.from(cursor);
        for (int i = 0; i <= 2; i++, month = month.plusMonths(1)) {
          LocalDateTime candidate =
              month.atDay(Math.min(dayOfMonth, month.lengthOfMonth())).atTime(time);
          if (candidate.isAfter(cursor)) {
            yield candidate;
          }
        }
        throw new IllegalStateException("unreachable");
      }
      case "custom" ->
          // cron-utils walks wall-clock time on a zone without offsets changes; DST is ours
          cron.nextExecution(cursor.atZone(ZoneOffset.UTC))
              .orElseThrow(() -> new IllegalStateException("the cron expression never fires"))
              .toLocalDateTime();
      default -> throw new IllegalArgumentException("unknown scheduleType " + type);
    };
  }
}
