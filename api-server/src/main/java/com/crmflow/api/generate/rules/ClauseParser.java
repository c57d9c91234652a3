package com.crmflow.api.generate.rules;

import com.crmflow.api.generate.FlowGenerator.Reenroll;
import com.crmflow.workflow.canvas.CanvasNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts a prompt (in the parser's English) into clauses: at commas, semicolons, sentence ends, "->",
 * ": ", "then", and "and" before a verb. A trigger named last ("ping #support when ...", "send a
 * welcome email, once a deal is won") is moved first; a re-enrollment rule ("only once per
 * contact") is taken out, since it says how the flow is run rather than what it does.
 */
final class ClauseParser {

  private static final String VERBS =
      "send|email|post|wait|call|create|update|notify|set|mark|move|fetch|get|add|log|if|else|otherwise|then|map|merge|filter|transform|message|pull|sync|ping|tell";
  private static final Pattern CLAUSE_BREAK =
      Pattern.compile(
          "(?i)\\s*;\\s*|\\s*,(?![0-9]{3}\\b)\\s*|\\s*->\\s*|:\\s+|(?<![0-9])\\.\\s+|\\s+then\\s+"
              + "|\\s+(?=(?:else|otherwise)\\b)"
              + "|\\s+and\\s+(?=(?:then\\s+)?(?:"
              + VERBS
              + ")\\b)");

  /** Where an action starts inside a schedule or "if" clause ("... at 9:00 call https://"). */
  private static final Pattern ACTION =
      Pattern.compile(
          "(?i)\\s(?=(?:send|post|wait|call|create|update|notify|set|mark|move|fetch|add|log|get"
              + "|pull|sync|ping|tell|email)\\b)");

  /**
   * A re-enrollment rule in a prompt: "only once per contact" (never), "at most once every 30 days
   * per contact" (after 30 days), with the comma or word that ties it to the rest.
   */
  private static final Pattern ONCE =
      Pattern.compile(
          "(?i)[,;]?\\s*(?:but\\s+|and\\s+)?(?:only|just|at most|no more than)\\s+once"
              + "(?:\\s+every\\s+(\\d+|a|one|two|three|four|seven|ten)\\s*(days?|weeks?))?"
              + "\\s+(?:per|for each|for every|a)\\s+(?:contact|person|lead|customer|deal|record)\\b");

  /** Where a trigger named after its action starts: "..., once a deal is won". */
  private static final Pattern LATE_TRIGGER =
      Pattern.compile(
          "(?i)(?:^|\\s)((?:when(?:ever)?|once|as soon as|after)\\s+(?:an?|the|any|someone)\\b.*)$");

  /** A wait's limit in a clause of its own: "wait until they reply, at most 3 days". */
  private static final Pattern WAIT_LIMIT =
      Pattern.compile(
          "(?i)((?:wait|hold)\\s+(?:until|till|for)\\s+[^,;.]+?)\\s*[,;]\\s*"
              + "((?:at most|for at most|up to|for up to|no (?:more|longer) than|max(?:imum)?"
              + "|within)\\s+\\S+\\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?))");

  private final Triggers triggers;

  ClauseParser(Triggers triggers) {
    this.triggers = triggers;
  }

  /** A prompt's clauses, and the re-enrollment rule it names (null: none). */
  record Parsed(Clauses clauses, Reenroll reenroll) {}

  /** A clause that opens with a trigger, and the action that follows it in the clause (or null). */
  record Opening(CanvasNode trigger, String action) {}

  /** A clause cut where an action starts: what comes before it, and the action (or null). */
  record Parts(Clause head, String action) {}

  Parsed parse(String english) {
    Matcher once = ONCE.matcher(english);
    Reenroll reenroll = null;
    if (once.find()) {
      reenroll =
          once.group(1) == null
              ? new Reenroll("never", null)
              : new Reenroll(
                  "after",
                  // "every 99999999999 days" stays past the limit the controller refuses
                  (int)
                      Math.min(
                          Integer.MAX_VALUE,
                          Math.round(
                              Words.number(once.group(1))
                                  * (once.group(2).startsWith("w") ? 7 : 1))));
      english = (english.substring(0, once.start()) + " " + english.substring(once.end())).trim();
    }
    List<String> clauses =
        lateTriggerFirst(List.of(CLAUSE_BREAK.split(waitWithItsLimit(triggerFirst(english)))));
    return new Parsed(new Clauses(clauses), reenroll);
  }

  /** The trigger a clause opens with, and the action after it; null when it names no trigger. */
  Opening opening(Clause clause) {
    Parts parts = splitAtAction(clause, triggers.startsLikeTrigger(clause));
    CanvasNode trigger = triggers.read(parts.head());
    return trigger == null ? null : new Opening(trigger, parts.action());
  }

  /** The clause cut where an action verb follows within it, when {@code split}; else whole. */
  static Parts splitAtAction(Clause clause, boolean split) {
    Matcher action = ACTION.matcher(clause.text());
    if (split && action.find() && action.start() > 0) {
      return new Parts(
          Clause.of(clause.text().substring(0, action.start()).trim()),
          clause.text().substring(action.start()).trim());
    }
    return new Parts(clause, null);
  }

  /** "Ping #support when a conversation is handed to a human": the trigger goes first. */
  private static String triggerFirst(String prompt) {
    Matcher late =
        Pattern.compile("(?i)^([^,;.]+?)\\s+(when(?:ever)?\\s+[^,;.]+)([,;.].*)?$").matcher(prompt);
    if (late.matches()
        && !late.group(1).toLowerCase(Locale.ROOT).matches("^(when|whenever|if)\\b.*")) {
      return late.group(2) + ", " + late.group(1) + (late.group(3) == null ? "" : late.group(3));
    }
    return prompt;
  }

  private static String waitWithItsLimit(String prompt) {
    return WAIT_LIMIT.matcher(prompt).replaceAll("$1 $2");
  }

  /**
   * The clauses with a trigger named after the action moved first ("send a welcome email, when a
   * contact is created"; "wait 1 day and send an email after a meeting is booked"), unless the
   * first clause is a trigger itself.
   */
  private List<String> lateTriggerFirst(List<String> clauses) {
    if (clauses.isEmpty() || opening(Clause.of(clauses.get(0).trim())) != null) {
      return clauses;
    }
    for (int i = 0; i < clauses.size(); i++) {
      String clause = clauses.get(i).trim();
      Matcher late = LATE_TRIGGER.matcher(clause);
      if (late.find()) {
        String named = late.group(1).replaceFirst("(?i)^as soon as", "when");
        if (triggers.read(Clause.of(named)) != null) {
          List<String> moved = new ArrayList<>(clauses);
          String before = clause.substring(0, late.start()).trim();
          if (before.isEmpty()) {
            moved.remove(i);
          } else {
            moved.set(i, before);
          }
          moved.add(0, named);
          return moved;
        }
      }
    }
    return clauses;
  }

  /**
   * The clauses still to read, in order. A clause read in parts (a trigger or a condition with its
   * action) puts its action back at the head.
   */
  static final class Clauses {

    private final Deque<String> queue;

    private Clauses(List<String> clauses) {
      this.queue = new ArrayDeque<>(clauses);
    }

    /** The next clause that says something, without a leading "and" or "then"; null at the end. */
    Clause next() {
      while (!queue.isEmpty()) {
        String clause = queue.poll().trim().replaceAll("^(?i)(and|then)\\s+", "").trim();
        if (!clause.isEmpty()) {
          return Clause.of(clause);
        }
      }
      return null;
    }

    /** Puts the clauses of {@code text} at the head of the queue, in order. */
    void pushFront(String text) {
      List<String> parts = List.of(CLAUSE_BREAK.split(text));
      for (int i = parts.size() - 1; i >= 0; i--) {
        queue.push(parts.get(i));
      }
    }
  }
}
