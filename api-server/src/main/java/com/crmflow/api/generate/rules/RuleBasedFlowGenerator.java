package com.crmflow.api.generate.rules;

import com.crmflow.api.generate.FlowGenerator;
import org.springframework.stereotype.Component;

/**
 * A deterministic prompt parser. German, French and Spanish prompts are first rewritten into the
 * English it reads (see {@link PhraseBook}); the {@link ClauseParser} cuts the prompt into clauses
 * (a trigger named last is moved first), and each clause becomes at most one node:
 *
 * <ul>
 *   <li>triggers, while nothing else has been read: "when a webhook arrives", "every Monday at 9:00
 *       Europe/Berlin", "daily at 7:30", "every 15 minutes", "on the 1st of every month at 8:00",
 *       "when a contact is created with lead_status qualified", "when an opportunity changes
 *       stage", ... ({@link Triggers});
 *   <li>"if ..." opens a condition; the following clauses form its true branch until "else" or
 *       "otherwise", after which they form its false branch ({@link ConditionBuilder});
 *   <li>steps: "wait 2 days", "send an email with subject X", "call https://...", "post the result
 *       to #sales", "create an opportunity", "create a task to ...", "add a note ...", "set
 *       lead_status to engaged", "move the opportunity to closed_won", "map/merge/filter ..."
 *       (data_transform), and day plans ("day 0 welcome email, day 3 tips") ({@link Steps}).
 * </ul>
 *
 * The flow is drafted in a {@link FlowDraft}, which lays the nodes out.
 */
@Component
public class RuleBasedFlowGenerator implements FlowGenerator {

  private final ClauseParser parser = new ClauseParser(new Triggers());
  private final ConditionBuilder conditions = new ConditionBuilder();
  private final Steps steps = new Steps();

  @Override
  public Reading read(String prompt, boolean automation) {
    ClauseParser.Parsed parsed = parser.parse(PhraseBook.toEnglish(prompt.trim()));
    FlowDraft flow = new FlowDraft(automation);
    ClauseParser.Clauses clauses = parsed.clauses();
    for (Clause clause = clauses.next(); clause != null; clause = clauses.next()) {
      read(clause, clauses, flow, automation);
    }
    return new Reading(flow.canvas(automation), flow.unclear(), parsed.reenroll());
  }

  /** One clause: the trigger, a branch, a condition or a step; an action after it goes back. */
  private void read(
      Clause clause, ClauseParser.Clauses clauses, FlowDraft flow, boolean automation) {
    if (flow.atStart()) {
      ClauseParser.Opening opening = parser.opening(clause);
      if (opening != null) {
        flow.startWith(opening.trigger(), automation);
        if (opening.action() != null) {
          clauses.pushFront(opening.action());
        }
        return;
      }
    }
    if (clause.lower().startsWith("else") || clause.lower().startsWith("otherwise")) {
      flow.openNextBranch();
      clause = Clause.of(clause.text().replaceFirst("(?i)^(else|otherwise)\\s*,?\\s*", "").trim());
      if (clause.text().isEmpty()) {
        return;
      }
    }
    if (conditions.reads(clause, flow)) {
      ClauseParser.Parts parts = ClauseParser.splitAtAction(clause, true);
      conditions.build(parts.head(), flow);
      if (parts.action() != null) {
        clauses.pushFront(parts.action());
      }
      return;
    }
    steps.read(clause, flow);
  }
}
