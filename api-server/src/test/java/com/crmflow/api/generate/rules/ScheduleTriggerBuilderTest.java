package com.crmflow.api.generate.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScheduleTriggerBuilderTest {

  private final ScheduleTriggerBuilder schedules = new ScheduleTriggerBuilder();

  private Map<String, Object> config(String clause) {
    return schedules.read(Clause.of(clause)).data().config();
  }

  @Test
  void weekdaysMonthsAndIntervalsBecomeTheirScheduleTypes() {
    assertThat(config("every weekday at 7am"))
        .isEqualTo(
            Map.of(
                "timezone", "UTC",
                "time", "07:00",
                "scheduleType", "weekly",
                "daysOfWeek", List.of(1, 2, 3, 4, 5)));
    assertThat(config("on the 3rd of every month at 8:00 Europe/Berlin"))
        .isEqualTo(
            Map.of(
                "timezone", "Europe/Berlin",
                "time", "08:00",
                "scheduleType", "monthly",
                "dayOfMonth", 3));
    assertThat(config("every 15 minutes"))
        .containsEntry("scheduleType", "custom")
        .containsEntry("customCron", "*/15 * * * *");
    assertThat(config("every 2 hours")).containsEntry("customCron", "0 */2 * * *");
    assertThat(config("daily at 5:30 pm"))
        .containsEntry("scheduleType", "daily")
        .containsEntry("time", "17:30");
  }

  @Test
  void aClauseThatIsNoScheduleIsNoTrigger() {
    assertThat(schedules.read(Clause.of("when a contact is created"))).isNull();
    assertThat(schedules.read(Clause.of("send an email every day"))).isNull();
  }
}
