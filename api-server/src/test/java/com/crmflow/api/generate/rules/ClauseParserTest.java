package com.crmflow.api.generate.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.generate.FlowGenerator.Reenroll;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClauseParserTest {

  private final ClauseParser parser = new ClauseParser(new Triggers());

  private static List<String> texts(ClauseParser.Clauses clauses) {
    List<String> texts = new ArrayList<>();
    for (Clause clause = clauses.next(); clause != null; clause = clauses.next()) {
      texts.add(clause.text());
    }
    return texts;
  }

  @Test
  void aTriggerNamedAfterItsActionIsReadFirst() {
    ClauseParser.Parsed parsed =
        parser.parse("wait 1 day and send an email after a meeting is booked");

    assertThat(texts(parsed.clauses()))
        .containsExactly("after a meeting is booked", "wait 1 day", "send an email");
    assertThat(parsed.reenroll()).isNull();
  }

  @Test
  void aReenrollmentRuleIsTakenOutOfTheClauses() {
    ClauseParser.Parsed never =
        parser.parse("when a contact is created, send an email, only once per contact");
    ClauseParser.Parsed every =
        parser.parse(
            "when a contact is created send an email at most once every 2 weeks per contact");

    assertThat(texts(never.clauses()))
        .containsExactly("when a contact is created", "send an email");
    assertThat(never.reenroll()).isEqualTo(new Reenroll("never", null));
    assertThat(every.reenroll()).isEqualTo(new Reenroll("after", 14));
  }

  @Test
  void aScheduleClauseOpensWithItsTriggerAndGivesBackItsAction() {
    ClauseParser.Opening opening =
        parser.opening(Clause.of("every Monday at 9:00 call https://api.example.com/report"));

    assertThat(opening.trigger().type()).isEqualTo("schedule_trigger");
    assertThat(opening.action()).isEqualTo("call https://api.example.com/report");
    assertThat(parser.opening(Clause.of("send an email"))).isNull();
  }

  @Test
  void anActionPutBackIsReadNextInItsOwnClauses() {
    ClauseParser.Clauses clauses = parser.parse("when a webhook arrives").clauses();
    assertThat(clauses.next().text()).isEqualTo("when a webhook arrives");

    clauses.pushFront("wait 2 days and then send an email");

    assertThat(texts(clauses)).containsExactly("wait 2 days", "send an email");
  }
}
