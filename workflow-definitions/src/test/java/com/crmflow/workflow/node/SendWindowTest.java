package com.crmflow.workflow.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The first moment inside a send window, across weekends, midnight and daylight saving. */
class SendWindowTest {

  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

  private static SendWindow window(List<Integer> days, String from, String to) {
    return SendWindow.of(Map.of("days", days, "from", from, "to", to, "timezone", "contact"));
  }

  private static final List<Integer> WEEKDAYS = List.of(1, 2, 3, 4, 5);
  private static final List<Integer> EVERY_DAY = List.of(1, 2, 3, 4, 5, 6, 7);

  @Test
  void aMomentInsideTheWindowIsItsOwnFirstOpenMoment() {
    // Wednesday 2026-06-10, 11:15 in New York (EDT, UTC-4)
    Instant at = Instant.parse("2026-06-10T15:15:00Z");
    assertThat(window(WEEKDAYS, "09:00", "17:00").firstOpen(at, NEW_YORK)).isEqualTo(at);
  }

  @Test
  void beforeTheWindowItOpensThatDayAndAfterItTheNextDayOfTheWindow() {
    SendWindow nineToFive = window(WEEKDAYS, "09:00", "17:00");
    assertThat(nineToFive.firstOpen(Instant.parse("2026-06-10T10:00:00Z"), NEW_YORK))
        .isEqualTo(Instant.parse("2026-06-10T13:00:00Z"));
    // Friday 2026-06-12 at 18:00 EDT: the next weekday is Monday the 15th
    assertThat(nineToFive.firstOpen(Instant.parse("2026-06-12T22:00:00Z"), NEW_YORK))
        .isEqualTo(Instant.parse("2026-06-15T13:00:00Z"));
    // the end is not inside: 17:00 sharp waits for the next day
    assertThat(nineToFive.firstOpen(Instant.parse("2026-06-10T21:00:00Z"), NEW_YORK))
        .isEqualTo(Instant.parse("2026-06-11T13:00:00Z"));
  }

  @Test
  void aWindowThatStartsInTheHourASpringForwardDaySkipsStartsAtItsFirstValidMinute() {
    // Sunday 2026-03-29 in Berlin: 02:00 CET jumps to 03:00 CEST (01:00 UTC)
    SendWindow halfPastTwo = window(EVERY_DAY, "02:30", "06:00");
    assertThat(halfPastTwo.firstOpen(Instant.parse("2026-03-28T23:00:00Z"), BERLIN))
        .isEqualTo(Instant.parse("2026-03-29T01:00:00Z"));
    // the day after, 02:30 CEST exists again
    assertThat(halfPastTwo.firstOpen(Instant.parse("2026-03-29T05:00:00Z"), BERLIN))
        .isEqualTo(Instant.parse("2026-03-30T00:30:00Z"));
  }

  @Test
  void aWindowThatStartsInTheHourAFallBackDayRepeatsStartsAtItsFirstOccurrence() {
    // Sunday 2026-10-25 in Berlin: 03:00 CEST falls back to 02:00 CET, 02:30 happens twice
    SendWindow halfPastTwo = window(EVERY_DAY, "02:30", "06:00");
    assertThat(halfPastTwo.firstOpen(Instant.parse("2026-10-24T22:00:00Z"), BERLIN))
        .isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
  }

  @Test
  void aDelayOfADayAcrossSpringForwardEndsAtTheWindowsLocalTime() {
    // 09:00 Berlin on Saturday 2026-03-28 is 08:00 UTC; a day later it is 07:00 UTC
    SendWindow nineToTen = window(EVERY_DAY, "09:00", "10:00");
    assertThat(nineToTen.firstOpen(Instant.parse("2026-03-29T07:00:00Z"), BERLIN))
        .isEqualTo(Instant.parse("2026-03-29T07:00:00Z"));
    assertThat(nineToTen.firstOpen(Instant.parse("2026-03-29T08:00:00Z"), BERLIN))
        .isEqualTo(Instant.parse("2026-03-30T07:00:00Z"));
  }

  @Test
  void aWindowPastMidnightIsOpenFromItsStartToItsEndTheNextMorning() {
    SendWindow night = window(List.of(5), "22:00", "06:00"); // Friday night
    // Saturday 2026-06-13 03:00 EDT: still Friday's window
    Instant saturdayNight = Instant.parse("2026-06-13T07:00:00Z");
    assertThat(night.firstOpen(saturdayNight, NEW_YORK)).isEqualTo(saturdayNight);
    // Saturday 07:00 EDT: next Friday 22:00 EDT
    assertThat(night.firstOpen(Instant.parse("2026-06-13T11:00:00Z"), NEW_YORK))
        .isEqualTo(Instant.parse("2026-06-20T02:00:00Z"));
  }

  @Test
  void aWindowIsCheckedFieldByField() {
    assertThat(
            SendWindow.problem(
                Map.of("days", List.of(), "from", "09:00", "to", "17:00", "timezone", "UTC")))
        .startsWith("needs days");
    assertThat(
            SendWindow.problem(
                Map.of("days", List.of(0), "from", "09:00", "to", "17:00", "timezone", "UTC")))
        .isEqualTo("needs days from 1 (Monday) to 7 (Sunday); found 0");
    assertThat(
            SendWindow.problem(
                Map.of("days", List.of(1, 1), "from", "09:00", "to", "17:00", "timezone", "UTC")))
        .isEqualTo("lists day 1 twice");
    assertThat(
            SendWindow.problem(
                Map.of("days", List.of(1), "from", "9am", "to", "17:00", "timezone", "UTC")))
        .isEqualTo("needs from: a time HH:mm (24-hour)");
    assertThat(
            SendWindow.problem(
                Map.of("days", List.of(1), "from", "09:00", "to", "09:00", "timezone", "UTC")))
        .startsWith("needs from and to apart");
    assertThat(
            SendWindow.problem(
                Map.of(
                    "days", List.of(1), "from", "09:00", "to", "17:00", "timezone", "Mars/Base")))
        .startsWith("needs timezone");
    assertThat(
            SendWindow.problem(
                Map.of(
                    "days",
                    List.of(1),
                    "from",
                    "09:00",
                    "to",
                    "17:00",
                    "timezone",
                    "UTC",
                    "at",
                    "x")))
        .isEqualTo("has no field at (days, from, to, timezone)");
    assertThat(
            SendWindow.problem(
                Map.of("days", List.of(7), "from", "09:00", "to", "17:00", "timezone", "contact")))
        .isNull();
  }
}
