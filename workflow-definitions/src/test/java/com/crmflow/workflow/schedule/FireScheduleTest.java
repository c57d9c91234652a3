package com.crmflow.workflow.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fire times of every schedule type, including the daylight-saving change days. */
class FireScheduleTest {

  private static List<String> fires(Map<String, Object> config, String from, int count) {
    FireSchedule schedule = FireSchedule.of(config);
    List<String> fires = new ArrayList<>();
    Instant cursor = Instant.parse(from);
    for (int i = 0; i < count; i++) {
      cursor = schedule.nextFireAfter(cursor);
      fires.add(cursor.toString());
    }
    return fires;
  }

  private static Map<String, Object> daily(String time, String zone) {
    return Map.of("scheduleType", "daily", "time", time, "timezone", zone);
  }

  @Test
  void berlinSpringForwardShiftsTheMissingTimeByTheGap() {
    // 2026-03-29: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist that day
    assertThat(fires(daily("02:30", "Europe/Berlin"), "2026-03-27T12:00:00Z", 4))
        .containsExactly(
            "2026-03-28T01:30:00Z", // 02:30 CET
            "2026-03-29T01:30:00Z", // 03:30 CEST, the shifted 02:30
            "2026-03-30T00:30:00Z", // 02:30 CEST
            "2026-03-31T00:30:00Z");
  }

  @Test
  void berlinFallBackFiresTheRepeatedTimeOnce() {
    // 2026-10-25: 03:00 CEST falls back to 02:00 CET; 02:30 happens twice
    assertThat(fires(daily("02:30", "Europe/Berlin"), "2026-10-23T12:00:00Z", 4))
        .containsExactly(
            "2026-10-24T00:30:00Z", // 02:30 CEST
            "2026-10-25T00:30:00Z", // the first 02:30 (CEST) only
            "2026-10-26T01:30:00Z", // 02:30 CET
            "2026-10-27T01:30:00Z");
  }

  @Test
  void newYorkSpringForwardAndFallBack() {
    // 2026-03-08: 02:00 EST jumps to 03:00 EDT
    assertThat(fires(daily("02:15", "America/New_York"), "2026-03-06T12:00:00Z", 3))
        .containsExactly(
            "2026-03-07T07:15:00Z", // 02:15 EST
            "2026-03-08T07:15:00Z", // 03:15 EDT, the shifted 02:15
            "2026-03-09T06:15:00Z"); // 02:15 EDT
    // 2026-11-01: 02:00 EDT falls back to 01:00 EST; 01:30 happens twice
    assertThat(fires(daily("01:30", "America/New_York"), "2026-10-30T12:00:00Z", 3))
        .containsExactly(
            "2026-10-31T05:30:00Z", // 01:30 EDT
            "2026-11-01T05:30:00Z", // the first 01:30 (EDT) only
            "2026-11-02T06:30:00Z"); // 01:30 EST
  }

  @Test
  void aFireJustAtTheRepeatedHourIsNotRepeated() {
    // a schedule restarted between the two 01:30s of New York's fall-back night
    assertThat(fires(daily("01:30", "America/New_York"), "2026-11-01T05:30:00Z", 1))
        .containsExactly("2026-11-02T06:30:00Z");
  }

  @Test
  void weeklyOnTheGivenDays() {
    Map<String, Object> mondaysAndWednesdays =
        Map.of(
            "scheduleType",
            "weekly",
            "time",
            "09:00",
            "timezone",
            "Europe/Berlin",
            "daysOfWeek",
            List.of(1, 3));
    // 2026-03-27 is a Friday; the Monday after is the spring-forward week
    assertThat(fires(mondaysAndWednesdays, "2026-03-27T12:00:00Z", 3))
        .containsExactly("2026-03-30T07:00:00Z", "2026-04-01T07:00:00Z", "2026-04-06T07:00:00Z");
    Map<String, Object> sundays =
        Map.of(
            "scheduleType",
            "weekly",
            "time",
            "02:30",
            "timezone",
            "Europe/Berlin",
            "daysOfWeek",
            List.of(0));
    assertThat(fires(sundays, "2026-03-21T12:00:00Z", 2))
        .containsExactly("2026-03-22T01:30:00Z", "2026-03-29T01:30:00Z");
  }

  @Test
  void monthlyOnTheDayOrTheLastDayOfShorterMonths() {
    assertThat(
            fires(
                Map.of("scheduleType", "monthly", "time", "08:00", "timezone", "UTC"),
                "2026-01-15T00:00:00Z",
                2))
        .containsExactly("2026-02-01T08:00:00Z", "2026-03-01T08:00:00Z");
    assertThat(
            fires(
                Map.of(
                    "scheduleType",
                    "monthly",
                    "time",
                    "08:00",
                    "timezone",
                    "America/New_York",
                    "dayOfMonth",
                    31),
                "2026-01-31T14:00:00Z",
                3))
        .containsExactly("2026-02-28T13:00:00Z", "2026-03-31T12:00:00Z", "2026-04-30T12:00:00Z");
  }

  @Test
  void customCronInTheZoneAcrossTheChange() {
    Map<String, Object> weekdaysAtNine =
        Map.of(
            "scheduleType",
            "custom",
            "time",
            "00:00",
            "timezone",
            "America/New_York",
            "customCron",
            "0 9 * * 1-5");
    // Friday 2026-03-06, then Monday 03-09 after the change to EDT
    assertThat(fires(weekdaysAtNine, "2026-03-06T12:00:00Z", 2))
        .containsExactly("2026-03-06T14:00:00Z", "2026-03-09T13:00:00Z");
    Map<String, Object> halfHourly =
        Map.of(
            "scheduleType",
            "custom",
            "time",
            "00:00",
            "timezone",
            "Europe/Berlin",
            "customCron",
            "*/30 * * * *");
    // through the spring-forward gap: 01:30 CET, then 03:00 CEST (02:00 shifted; 02:30 merges)
    assertThat(fires(halfHourly, "2026-03-29T00:15:00Z", 3))
        .containsExactly("2026-03-29T00:30:00Z", "2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z");
  }
}
