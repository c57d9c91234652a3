package com.crmflow.api.generate.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SendWindowTest {

  @Test
  void aToHourNotAfterItsFromHourIsInTheAfternoonInTheContactsZone() {
    assertThat(SendWindow.window(Clause.of("send it between 9 and 5 on weekdays")))
        .isEqualTo(
            Map.of(
                "days", List.of(1, 2, 3, 4, 5),
                "from", "09:00",
                "to", "17:00",
                "timezone", "contact"));
  }

  @Test
  void amAndPmAndANamedZoneAreKept() {
    assertThat(SendWindow.window(Clause.of("between 9:30am and 12pm Europe/Berlin")))
        .isEqualTo(
            Map.of(
                "days", List.of(1, 2, 3, 4, 5, 6, 7),
                "from", "09:30",
                "to", "12:00",
                "timezone", "Europe/Berlin"));
    assertThat(SendWindow.window(Clause.of("between 10pm and 6am")))
        .containsEntry("from", "22:00")
        .containsEntry("to", "06:00");
    assertThat(SendWindow.window(Clause.of("send a welcome email"))).isNull();
  }

  @Test
  void aWindowInAClauseOfItsOwnSetsTheWindowOfTheEmailBeforeIt() {
    SendWindow window = new SendWindow();
    Clause alone = Clause.of("only between 9 and 5 their time");
    FlowDraft flow = new FlowDraft(true);
    assertThat(window.reads(alone, flow)).isFalse();

    flow.add("email", "Email: Welcome", new LinkedHashMap<>(Map.of("subject", "Welcome")));
    assertThat(window.reads(alone, flow)).isTrue();
    window.build(alone, flow);

    assertThat(flow.size()).isEqualTo(1);
    assertThat(flow.canvas(false).orElseThrow().nodes().get(0).data().config())
        .containsEntry("subject", "Welcome")
        .containsEntry(
            "window",
            Map.of(
                "days", List.of(1, 2, 3, 4, 5, 6, 7),
                "from", "09:00",
                "to", "17:00",
                "timezone", "contact"));
  }
}
