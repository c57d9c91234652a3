package com.crmflow.api.generate.rules;

import com.crmflow.api.generate.FlowGenerator;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.canvas.Position;
import com.crmflow.workflow.event.EventNames;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * A deterministic prompt parser. German, French and Spanish prompts are first rewritten into the
 * English it reads (see {@link PhraseBook}); a trigger named last ("ping #support when ...") is
 * moved first. The prompt is cut into clauses (at commas, semicolons, sentence ends, "->", ": ",
 * "then", and "and" before a verb); each clause becomes at most one node:
 *
 * <ul>
 *   <li>triggers: "when a webhook arrives", "every Monday at 9:00 Europe/Berlin", "daily at 7:30",
 *       "every 15 minutes", "on the 1st of every month at 8:00", "when a contact is created with
 *       lead_status qualified", "when an opportunity changes stage", ...
 *   <li>steps: "wait 2 days", "send an email with subject X", "call https://...", "post the result
 *       to #sales", "create an opportunity", "create a task to ...", "add a note ...", "set
 *       lead_status to engaged", "move the opportunity to closed_won", "map/merge/filter ..."
 *       (data_transform)
 *   <li>"if ..." opens a condition; the following clauses form its true branch until "else" or
 *       "otherwise", after which they form its false branch.
 *   <li>day plans, "day 0 welcome email, day 3 tips": a delay for the days between steps, and a
 *       step named only by its topic is an email.
 * </ul>
 *
 * Nodes are laid out left to right (250 px apart), true branches above and false below.
 */
@Component
public class RuleBasedFlowGenerator implements FlowGenerator {

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

  private static final Pattern URL = Pattern.compile("https?://[^\\s,;\"']+[^\\s,;\"'.]");
  private static final Pattern QUOTED = Pattern.compile("[\"“']([^\"”']{1,200})[\"”']");
  private static final Pattern TIME =
      Pattern.compile(
          "\\b([01]?[0-9]|2[0-3])[:.h]([0-5][0-9])\\b\\s*(am|pm)?", Pattern.CASE_INSENSITIVE);
  private static final Pattern TIME_AMPM =
      Pattern.compile("\\b(1[0-2]|0?[1-9])\\s*(am|pm)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern ZONE =
      Pattern.compile("\\b([A-Z][A-Za-z_]+/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?|UTC)\\b");
  private static final Pattern CHANNEL = Pattern.compile("(#[\\p{L}0-9_-]+)");
  private static final Pattern DURATION =
      Pattern.compile(
          "(\\d+(?:\\.\\d+)?|an?|one|two|three|four|five|six|seven|ten)\\s*(minutes?|mins?|hours?|hrs?|days?|weeks?)",
          Pattern.CASE_INSENSITIVE);
  private static final List<String> DAYS =
      List.of("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday");

  /** A step being built, and the branch of an open condition it belongs to. */
  private static final class Builder {
    final List<CanvasNode> nodes = new ArrayList<>();
    final List<CanvasEdge> edges = new ArrayList<>();
    final Map<String, Integer> typeCounts = new LinkedHashMap<>();
    CanvasNode trigger;
    String last; // tail of the main line, or of the current branch
    String condition; // open condition node, if any
    String branchLabel; // "true" or "false" while inside a condition ("met" or "timeout": a wait)
    String firstLabel = "true"; // the open branching node's first branch
    java.util.Deque<String> elseLabels = new java.util.ArrayDeque<>(); // what "otherwise" opens

    /** Opens the branching node's first branch; each "otherwise" opens the next of the others. */
    void branches(String first, List<String> others) {
      branchLabel = first;
      firstLabel = first;
      elseLabels = new java.util.ArrayDeque<>(others);
    }

    int column;
    Integer day; // the day of a "day 0 ..., day 3 ..." plan reached so far
    final List<FlowGenerator.Unclear> unclear = new ArrayList<>();
    RecordFields.Start start; // what the trigger's template {{trigger.*}} reads

    String add(String type, String label, Map<String, Object> config) {
      String id = UUID.randomUUID().toString();
      int y = branchLabel == null ? 0 : (firstLabel.equals(branchLabel) ? -150 : 150);
      nodes.add(
          new CanvasNode(id, type, new Position(column++ * 250.0, y), new NodeData(label, config)));
      typeCounts.merge(type, 1, Integer::sum);
      if (last != null) {
        boolean fromCondition = last.equals(condition) && branchLabel != null;
        edges.add(
            new CanvasEdge(
                "e" + (edges.size() + 1),
                last,
                id,
                fromCondition ? CanvasEdge.CONDITIONAL : CanvasEdge.DEFAULT,
                fromCondition ? branchLabel : null));
      }
      last = id;
      return id;
    }

    int count(String type) {
      return typeCounts.getOrDefault(type, 0);
    }
  }

  @Override
  public Reading read(String prompt, boolean automation) {
    Builder flow = new Builder();
    String english = PhraseBook.toEnglish(prompt.trim());
    Matcher once = ONCE.matcher(english);
    Reenroll reenroll = null;
    if (once.find()) {
      reenroll =
          once.group(1) == null
              ? new Reenroll("never", null)
              : new Reenroll(
                  "after",
                  (int)
                      Math.round(number(once.group(1)) * (once.group(2).startsWith("w") ? 7 : 1)));
      english = (english.substring(0, once.start()) + " " + english.substring(once.end())).trim();
    }
    Optional<Canvas> canvas = generate(flow, english, automation);
    return new Reading(canvas, flow.unclear, reenroll);
  }

  /**
   * A re-enrollment rule in a prompt: "only once per contact" (never), "at most once every 30 days
   * per contact" (after 30 days), with the comma or word that ties it to the rest.
   */
  private static final Pattern ONCE =
      Pattern.compile(
          "(?i)[,;]?\\s*(?:but\\s+|and\\s+)?(?:only|just|at most|no more than)\\s+once"
              + "(?:\\s+every\\s+(\\d+|a|one|two|three|four|seven|ten)\\s*(days?|weeks?))?"
              + "\\s+(?:per|for each|for every|a)\\s+(?:contact|person|lead|customer|deal|record)\\b");

  private Optional<Canvas> generate(Builder flow, String prompt, boolean automation) {
    flow.start = automation ? RecordFields.Start.PAYLOAD : RecordFields.Start.NONE;
    java.util.Deque<String> clauses =
        new java.util.ArrayDeque<>(
            lateTriggerFirst(List.of(CLAUSE_BREAK.split(waitWithItsLimit(triggerFirst(prompt))))));
    while (!clauses.isEmpty()) {
      String clause = clauses.poll().trim().replaceAll("^(?i)(and|then)\\s+", "").trim();
      if (clause.isEmpty()) {
        continue;
      }
      String lower = clause.toLowerCase(Locale.ROOT);
      if (flow.trigger == null && flow.last == null) {
        String[] parts =
            splitAtAction(
                clause, schedule(clause, lower) != null || EVENT_START.matcher(lower).find());
        CanvasNode trigger = trigger(parts[0], parts[0].toLowerCase(Locale.ROOT));
        if (trigger != null) {
          flow.trigger = trigger;
          if (automation) {
            flow.start = startOf(trigger);
          }
          if (parts.length > 1) {
            pushClauses(clauses, parts[1]);
          }
          continue;
        }
      }
      if (lower.startsWith("else") || lower.startsWith("otherwise")) {
        if (flow.condition != null) {
          flow.branchLabel = flow.elseLabels.isEmpty() ? flow.branchLabel : flow.elseLabels.poll();
          flow.last = flow.condition;
          flow.column = columnAfter(flow, flow.condition);
        }
        clause = clause.replaceFirst("(?i)^(else|otherwise)\\s*,?\\s*", "").trim();
        lower = clause.toLowerCase(Locale.ROOT);
        if (clause.isEmpty()) {
          continue;
        }
      }
      if (lower.startsWith("if ")) {
        String[] parts = splitAtAction(clause, true);
        addCondition(flow, parts[0], parts[0].toLowerCase(Locale.ROOT));
        if (parts.length > 1) {
          pushClauses(clauses, parts[1]);
        }
        continue;
      }
      step(flow, clause, lower);
    }
    if (flow.nodes.isEmpty()) {
      return Optional.empty();
    }
    List<CanvasNode> nodes = new ArrayList<>();
    List<CanvasEdge> edges = new ArrayList<>(flow.edges);
    if (automation) {
      CanvasNode trigger =
          flow.trigger != null
              ? flow.trigger
              : node(NodeType.WEBHOOK_TRIGGER, "Webhook", new LinkedHashMap<>());
      trigger = new CanvasNode(trigger.id(), trigger.type(), new Position(-250, 0), trigger.data());
      nodes.add(trigger);
      edges.add(
          0, new CanvasEdge("e0", trigger.id(), flow.nodes.get(0).id(), CanvasEdge.DEFAULT, null));
    }
    nodes.addAll(flow.nodes);
    return Optional.of(new Canvas(nodes, edges));
  }

  /** Puts the clauses of {@code text} at the head of the queue, in order. */
  private static void pushClauses(java.util.Deque<String> clauses, String text) {
    List<String> parts = List.of(CLAUSE_BREAK.split(text));
    for (int i = parts.size() - 1; i >= 0; i--) {
      clauses.push(parts.get(i));
    }
  }

  /** How a trigger clause starts ("when ...", "after a meeting is booked"). */
  private static final Pattern EVENT_START =
      Pattern.compile("^(?:when|whenever|once|on|after|if a)\\b(?!\\s+\\d)");

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

  /** Where a trigger named after its action starts: "..., once a deal is won". */
  private static final Pattern LATE_TRIGGER =
      Pattern.compile(
          "(?i)(?:^|\\s)((?:when(?:ever)?|once|as soon as|after)\\s+(?:an?|the|any|someone)\\b.*)$");

  /**
   * The clauses with a trigger named after the action moved first ("send a welcome email, when a
   * contact is created"; "wait 1 day and send an email after a meeting is booked"), unless the
   * first clause is a trigger itself.
   */
  private static List<String> lateTriggerFirst(List<String> clauses) {
    if (clauses.isEmpty() || startsWithTrigger(clauses.get(0).trim())) {
      return clauses;
    }
    for (int i = 0; i < clauses.size(); i++) {
      String clause = clauses.get(i).trim();
      Matcher late = LATE_TRIGGER.matcher(clause);
      if (late.find()) {
        String named = late.group(1).replaceFirst("(?i)^as soon as", "when");
        if (trigger(named, named.toLowerCase(Locale.ROOT)) != null) {
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

  private static boolean startsWithTrigger(String clause) {
    String lower = clause.toLowerCase(Locale.ROOT);
    String[] parts =
        splitAtAction(clause, schedule(clause, lower) != null || EVENT_START.matcher(lower).find());
    return trigger(parts[0], parts[0].toLowerCase(Locale.ROOT)) != null;
  }

  /** What {{trigger.*}} reads in a flow started by this trigger. */
  private static RecordFields.Start startOf(CanvasNode trigger) {
    if (trigger.type().equals(NodeType.SCHEDULE_TRIGGER.value())) {
      return RecordFields.Start.NONE;
    }
    Object event = trigger.data().config().get("eventType");
    if (event instanceof String name && name.startsWith("contact.")) {
      return RecordFields.Start.CONTACT;
    }
    if (event instanceof String name && name.startsWith("opportunity.")) {
      return RecordFields.Start.OPPORTUNITY;
    }
    return RecordFields.Start.PAYLOAD;
  }

  /** {before, action} when an action verb follows within the clause, else {clause}. */
  private static String[] splitAtAction(String clause, boolean split) {
    Matcher action = ACTION.matcher(clause);
    if (split && action.find() && action.start() > 0) {
      return new String[] {
        clause.substring(0, action.start()).trim(), clause.substring(action.start()).trim()
      };
    }
    return new String[] {clause};
  }

  private static int columnAfter(Builder flow, String nodeId) {
    for (CanvasNode node : flow.nodes) {
      if (node.id().equals(nodeId)) {
        return (int) (node.position().x() / 250) + 1;
      }
    }
    return flow.column;
  }

  // ---------------------------------------------------------------- triggers

  private static CanvasNode trigger(String clause, String lower) {
    if (lower.contains("webhook")) {
      return node(NodeType.WEBHOOK_TRIGGER, "Webhook received", new LinkedHashMap<>());
    }
    CanvasNode schedule = schedule(clause, lower);
    if (schedule != null) {
      return schedule;
    }
    if (EVENT_START.matcher(lower).find()) {
      String event = event(lower);
      if (event != null) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("eventType", event);
        Matcher filter =
            Pattern.compile(
                    "(?i)\\bwith\\s+([a-z_]+)\\s+(?:=|is|of|equal to)?\\s*['\"]?([A-Za-z0-9_.@-]+)['\"]?")
                .matcher(clause);
        if (filter.find()) {
          config.put("filterField", filter.group(1).toLowerCase(Locale.ROOT));
          config.put("filterValue", filter.group(2));
        } else if (event.equals(EventNames.OPPORTUNITY_STAGE_CHANGED)
            && lower.matches(".*\\b(won|lost)\\b.*")) {
          config.put("filterField", "stage");
          config.put("filterValue", lower.matches(".*\\bwon\\b.*") ? "closed_won" : "closed_lost");
        }
        return node(NodeType.CRM_EVENT_TRIGGER, "On " + event, config);
      }
    }
    return null;
  }

  private static String event(String lower) {
    if (lower.contains("stage") || lower.matches(".*\\b(won|lost|closes|closed)\\b.*")) {
      return EventNames.OPPORTUNITY_STAGE_CHANGED;
    }
    if (lower.contains("takes over") || lower.contains("human")) {
      return EventNames.CONVERSATION_OVERRIDE;
    }
    if (lower.contains("no-show") || lower.contains("no show")) {
      return EventNames.MEETING_NO_SHOW;
    }
    if (lower.contains("unenroll") || lower.contains("removed from")) {
      return EventNames.SEQUENCE_UNENROLLED;
    }
    if (lower.contains("enrol")) {
      return EventNames.SEQUENCE_ENROLLED;
    }
    if (lower.contains("completes") && lower.contains("sequence")) {
      return EventNames.SEQUENCE_COMPLETED;
    }
    if (lower.contains("meeting")) {
      return lower.contains("cancel") ? EventNames.MEETING_CANCELLED : EventNames.MEETING_BOOKED;
    }
    if (lower.contains("call")) {
      return lower.contains("scor") ? EventNames.CALL_QUALITY_SCORED : EventNames.CALL_COMPLETED;
    }
    if (lower.contains("conversation") || lower.contains("message arrives")) {
      return EventNames.CONVERSATION_CREATED;
    }
    boolean updated =
        lower.contains("updated") || lower.contains("changes") || lower.contains("changed");
    if (lower.contains("opportunity") || lower.contains("deal")) {
      return updated ? EventNames.OPPORTUNITY_UPDATED : EventNames.OPPORTUNITY_CREATED;
    }
    if (lower.contains("contact") || lower.contains("lead") || lower.contains("someone signs up")) {
      return updated ? EventNames.CONTACT_UPDATED : EventNames.CONTACT_CREATED;
    }
    return null;
  }

  private static CanvasNode schedule(String clause, String lower) {
    boolean scheduled =
        lower.startsWith("every")
            || lower.startsWith("daily")
            || lower.startsWith("weekly")
            || lower.startsWith("monthly")
            || lower.startsWith("each")
            || lower.startsWith("on the ");
    if (!scheduled) {
      return null;
    }
    Map<String, Object> config = new LinkedHashMap<>();
    Matcher minutes = Pattern.compile("every\\s+(\\d{1,2})\\s*min").matcher(lower);
    Matcher hours = Pattern.compile("every\\s+(\\d{1,2})?\\s*hours?").matcher(lower);
    String time = time(clause);
    config.put("timezone", zone(clause));
    if (minutes.find()) {
      config.put("scheduleType", "custom");
      config.put("customCron", "*/" + minutes.group(1) + " * * * *");
      config.put("time", "00:00");
      return node(NodeType.SCHEDULE_TRIGGER, "Every " + minutes.group(1) + " minutes", config);
    }
    if (hours.find() && time == null) {
      String n = hours.group(1) == null ? "1" : hours.group(1);
      config.put("scheduleType", "custom");
      config.put("customCron", "0 */" + n + " * * *");
      config.put("time", "00:00");
      return node(NodeType.SCHEDULE_TRIGGER, "Every " + n + " hour(s)", config);
    }
    config.put("time", time == null ? "09:00" : time);
    List<Integer> days = new ArrayList<>();
    for (int d = 0; d < DAYS.size(); d++) {
      if (lower.contains(DAYS.get(d))) {
        days.add(d);
      }
    }
    if (lower.contains("weekday")) {
      days = List.of(1, 2, 3, 4, 5);
    }
    Matcher dayOfMonth = Pattern.compile("(\\d{1,2})(?:st|nd|rd|th)").matcher(lower);
    if (lower.contains("month") && dayOfMonth.find()) {
      config.put("scheduleType", "monthly");
      config.put("dayOfMonth", Math.max(1, Math.min(31, Integer.parseInt(dayOfMonth.group(1)))));
    } else if (lower.contains("month")) {
      config.put("scheduleType", "monthly");
      config.put("dayOfMonth", 1);
    } else if (!days.isEmpty()) {
      config.put("scheduleType", "weekly");
      config.put("daysOfWeek", days);
    } else if (lower.contains("week")) {
      config.put("scheduleType", "weekly");
      config.put("daysOfWeek", List.of(1));
    } else {
      config.put("scheduleType", "daily");
    }
    return node(NodeType.SCHEDULE_TRIGGER, "Schedule: " + clause, config);
  }

  private static String time(String clause) {
    Matcher m = TIME.matcher(clause);
    if (m.find()) {
      int hour = Integer.parseInt(m.group(1));
      if (m.group(3) != null) {
        hour = hour % 12 + (m.group(3).equalsIgnoreCase("pm") ? 12 : 0);
      }
      return "%02d:%s".formatted(hour, m.group(2));
    }
    Matcher ampm = TIME_AMPM.matcher(clause);
    if (ampm.find()) {
      int hour =
          Integer.parseInt(ampm.group(1)) % 12 + (ampm.group(2).equalsIgnoreCase("pm") ? 12 : 0);
      return "%02d:00".formatted(hour);
    }
    return null;
  }

  private static String zone(String clause) {
    Matcher m = ZONE.matcher(clause);
    while (m.find()) {
      try {
        return ZoneId.of(m.group(1)).getId();
      } catch (DateTimeException e) {
        // not a zone: keep looking
      }
    }
    return "UTC";
  }

  // ---------------------------------------------------------------- steps

  /** "if <field> <operator> <value>", the field in as many words as the prompt needs. */
  private static final Pattern COMPARISON =
      Pattern.compile(
          "(?i)^if\\s+(.+?)\\s+(is not|isn't|does not contain|doesn't contain|contains|equals"
              + "|is equal to|!=|>=|<=|=|>|<|(?:is\\s+)?(?:greater than|more than|higher than|over"
              + "|above|exceeds|at least|less than|lower than|fewer than|under|below|at most)|is)"
              + "\\s+['\"]?(.+?)['\"]?(?:\\s+is)?$");

  /**
   * German word order, the verb last: "if the plan enterprise is" (wenn der Plan enterprise ist).
   */
  private static final Pattern VERB_LAST = Pattern.compile("(?i)^if\\s+(.+)\\s+(\\S+)\\s+is$");

  private static final Pattern AMOUNT =
      Pattern.compile(
          "(?i)^[$€£]?\\s*(\\d{1,3}(?:[,.' ]\\d{3})+|\\d+(?:\\.\\d+)?)\\s*(k)?\\s*"
              + "(?:[$€£]|usd|eur|gbp|dollars?|euros?)?$");

  private static void addCondition(Builder flow, String clause, String lower) {
    Map<String, Object> config = new LinkedHashMap<>();
    Matcher comparison = COMPARISON.matcher(clause);
    Matcher verbLast = VERB_LAST.matcher(clause);
    if (lower.contains("replied") || lower.contains("responded") || lower.contains("answered")) {
      config.put("field", "{{trigger.replied}}");
      config.put("operator", "equals");
      config.put("value", "true");
    } else if (lower.contains("opened")) {
      config.put("field", "{{trigger.opened}}");
      config.put("operator", "equals");
      config.put("value", "true");
    } else if (flow.count("http_request") > 0
        && (lower.contains("succeed") || lower.matches(".*\\bok\\b.*"))) {
      config.put("field", "{{http_request_" + flow.count("http_request") + ".statusCode}}");
      config.put("operator", "less_than");
      config.put("value", "300");
    } else if (comparison.find()) {
      compare(flow, clause, comparison.group(1), comparison.group(2), comparison.group(3), config);
    } else if (verbLast.find()) {
      compare(flow, clause, verbLast.group(1), "is", verbLast.group(2), config);
    } else {
      flow.unclear.add(
          new FlowGenerator.Unclear(
              clause,
              "which field does it test, and against what? e.g. \"if the deal amount is over"
                  + " 10000\", \"if the contact's lifecycle stage is customer\""));
    }
    flow.branchLabel = null;
    flow.condition = flow.add(NodeType.CONDITION.value(), capitalise(clause), config);
    flow.branches("true", List.of("false"));
  }

  /** A condition's field, operator and value, or the clause as unclear. */
  private static void compare(
      Builder flow,
      String clause,
      String subject,
      String word,
      String value,
      Map<String, Object> config) {
    RecordFields.Resolution field = RecordFields.read(subject, flow.start);
    if (!field.clear()) {
      flow.unclear.add(new FlowGenerator.Unclear(clause, field.question()));
      return;
    }
    String operator = operator(word.toLowerCase(Locale.ROOT).replaceAll("\\s+", " "));
    String compared = value.trim();
    if (operator == null) {
      flow.unclear.add(
          new FlowGenerator.Unclear(
              clause,
              "a condition compares with \"over\" or \"under\" (greater_than, less_than), not"
                  + " \""
                  + word
                  + "\": say which"));
      return;
    }
    if (operator.equals("greater_than") || operator.equals("less_than")) {
      compared = comparable(compared);
      if (compared == null) {
        flow.unclear.add(
            new FlowGenerator.Unclear(
                clause, "\"" + value.trim() + "\" is not a number to compare with"));
        return;
      }
    }
    config.put("field", field.field().template());
    config.put("operator", operator);
    config.put("value", compared);
  }

  /** "10,000", "$10000", "10k", "10.000 €" as "10000"; null when it is not a number. */
  private static String comparable(String text) {
    Matcher amount = AMOUNT.matcher(text.trim());
    if (!amount.matches()) {
      return null;
    }
    String digits = amount.group(1);
    if (digits.matches("\\d{1,3}(?:[,.' ]\\d{3})+")) {
      digits = digits.replaceAll("[,.' ]", "");
    }
    if (amount.group(2) != null) {
      return whole(Double.parseDouble(digits) * 1000).toString();
    }
    return digits;
  }

  /** The condition operator of a comparison word; null for "at least"/"at most" (no such one). */
  private static String operator(String word) {
    return switch (word) {
      case "is not", "isn't", "!=" -> "not_equals";
      case "contains" -> "contains";
      case "does not contain", "doesn't contain" -> "not_contains";
      case ">" -> "greater_than";
      case "<" -> "less_than";
      default ->
          word.matches(".*(at least|at most|>=|<=).*")
              ? null
              : word.matches(".*(greater|more|higher|over|above|exceeds).*")
                  ? "greater_than"
                  : word.matches(".*(less|lower|fewer|under|below).*") ? "less_than" : "equals";
    };
  }

  private static final Pattern DAY = Pattern.compile("(?i)^day\\s+(\\d{1,3})\\b\\s*:?\\s*(.*)$");

  private static void step(Builder flow, String clause, String lower) {
    Matcher day = DAY.matcher(clause);
    if (day.matches()) {
      // "day 0 welcome email, day 3 tips": a delay for the days between, then the step
      int n = Integer.parseInt(day.group(1));
      int from = flow.day == null ? Math.min(n, 1) : flow.day;
      if (flow.day != null || n > 1) {
        if (n > from) {
          Map<String, Object> config = new LinkedHashMap<>();
          config.put("delayDays", n - from);
          config.put("delayHours", 0);
          flow.add(NodeType.DELAY.value(), "Wait until day " + n, config);
        }
      }
      flow.day = n;
      String rest = day.group(2).trim();
      if (!rest.isEmpty()) {
        step(flow, rest, rest.toLowerCase(Locale.ROOT));
      }
      return;
    }
    int before = flow.nodes.size();
    plainStep(flow, clause, lower);
    if (flow.nodes.size() == before && flow.day != null) {
      // in a day plan, a step named by its topic ("tips", "check-in", "ask for a call") is an email
      email(flow, capitalise(clause), lower);
    }
  }

  private static void plainStep(Builder flow, String clause, String lower) {
    Matcher url = URL.matcher(clause);
    Matcher channel = CHANNEL.matcher(clause);
    Matcher duration = DURATION.matcher(lower);
    Matcher split = SPLIT.matcher(lower);
    if (split.find()) {
      split(flow, clause, split.group(1));
    } else if (WINDOW_ALONE.matcher(lower).matches() && windowed(flow) != null) {
      // "send a welcome email, only between 9 and 5 their time": the window of that email
      windowed(flow).data().config().put("window", window(clause, lower));
    } else if (WAIT_UNTIL.matcher(lower).find()) {
      waitUntil(flow, clause, lower);
    } else if (lower.startsWith("wait")
        || lower.startsWith("delay")
        || lower.startsWith("after") && duration.find(0)) {
      delay(flow, clause, lower);
    } else if (url.find() && !lower.contains("email")) {
      Map<String, Object> config = new LinkedHashMap<>();
      String method =
          lower.matches("^(post|send|push|submit).*")
              ? "POST"
              : lower.matches("^(put|replace).*")
                  ? "PUT"
                  : lower.matches("^(patch).*")
                      ? "PATCH"
                      : lower.matches("^(delete|remove).*") ? "DELETE" : "GET";
      config.put("method", method);
      config.put("url", url.group());
      if (!method.equals("GET") && !method.equals("DELETE")) {
        config.put("headers", Map.of("Content-Type", "application/json"));
        config.put(
            "bodyTemplate",
            "{\"event\": {{trigger}}}".replace("{{trigger}}", "\"{{trigger.event}}\""));
      }
      flow.add(NodeType.HTTP_REQUEST.value(), method + " " + host(url.group()), config);
    } else if (channel.find() || lower.contains("slack") || lower.contains("chat")) {
      Map<String, Object> config = new LinkedHashMap<>();
      config.put("channel", channel.find(0) ? channel.group(1) : "#general");
      config.put("messageTemplate", messageFor(flow, clause));
      flow.add(NodeType.CHAT_MESSAGE.value(), "Post to " + config.get("channel"), config);
    } else if (lower.contains("email") || lower.contains("e-mail") || lower.startsWith("send")) {
      email(flow, clause, lower);
    } else if (lower.matches("^(create|add|open|log)\\b.*")) {
      createRecord(flow, clause, lower);
    } else if (lower.matches("^(set|update|mark|move|change|assign|tag)\\b.*")) {
      updateRecord(flow, clause, lower);
    } else if (lower.matches("^(map|merge|filter|transform|combine|extract)\\b.*")) {
      transform(flow, clause, lower);
    }
    // a clause we do not understand adds nothing; if nothing at all is understood: 422
  }

  private static void delay(Builder flow, String clause, String lower) {
    Matcher m = DURATION.matcher(lower);
    double days = 0;
    double hours = 0;
    int end = 0;
    while (m.find()) {
      end = m.end();
      double n = number(m.group(1));
      String unit = m.group(2);
      if (unit.startsWith("w")) {
        days += 7 * n;
      } else if (unit.startsWith("d")) {
        days += n;
      } else if (unit.startsWith("h")) {
        hours += n;
      } else {
        hours += n / 60.0;
      }
    }
    if (days == 0 && hours == 0) {
      days = 1;
    }
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("delayDays", whole(days));
    config.put("delayHours", whole(hours));
    String rest = end == 0 ? "" : clause.substring(end).trim();
    flow.add(
        NodeType.DELAY.value(),
        capitalise(rest.isEmpty() ? clause : clause.substring(0, end)),
        config);
    // "wait 2 days tips email": what follows the duration is the next step
    String next = rest.replaceFirst("(?i)^(and|then|and then)\\s+", "").trim();
    if (!next.isEmpty()) {
      step(flow, next, next.toLowerCase(Locale.ROOT));
    }
  }

  /** "split 50/50", "split the contacts 70/30", "a/b test 40/30/30". */
  private static final Pattern SPLIT =
      Pattern.compile(
          "^(?:split|a/b[- ]test)\\b[^0-9]*(\\d{1,3}(?:\\.\\d+)?(?:\\s*/\\s*\\d{1,3}(?:\\.\\d+)?)+)");

  /**
   * split: branches A, B, ... by the percents named; the steps after it go on A, and each
   * "otherwise" opens the next branch.
   */
  private static void split(Builder flow, String clause, String percents) {
    List<Map<String, Object>> branches = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (String percent : percents.split("\\s*/\\s*")) {
      String label = String.valueOf((char) ('A' + labels.size()));
      labels.add(label);
      Map<String, Object> branch = new LinkedHashMap<>();
      branch.put("label", label);
      branch.put("percent", whole(Double.parseDouble(percent)));
      branches.add(branch);
    }
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("branches", branches);
    flow.branchLabel = null;
    flow.condition = flow.add(NodeType.SPLIT.value(), capitalise(clause), config);
    flow.branches(labels.get(0), labels.subList(1, labels.size()));
  }

  /** "between 9 and 5", "between 9:30am and 4pm". */
  private static final Pattern BETWEEN =
      Pattern.compile(
          "(?i)\\bbetween\\s+(\\d{1,2})(?:[:.](\\d{2}))?\\s*(am|pm)?\\s+and\\s+(\\d{1,2})"
              + "(?:[:.](\\d{2}))?\\s*(am|pm)?");

  /** A clause that only says when to send: "only between 9 and 5 their time". */
  private static final Pattern WINDOW_ALONE =
      Pattern.compile(
          "^(?:only\\s+)?(?:send(?:\\s+it|\\s+them)?\\s+)?(?:only\\s+)?between\\s+[0-9:.apm\\s]+"
              + "and\\s+[0-9:.apm\\s]+(?:(?:in\\s+)?(?:their|the contact's|local)\\s+time)?"
              + "(?:\\s+(?:on\\s+)?(?:weekdays|business days|monday to friday))?\\s*$");

  /** The last node, if a window can be its: an email or a delay. */
  private static CanvasNode windowed(Builder flow) {
    if (flow.nodes.isEmpty()) {
      return null;
    }
    CanvasNode last = flow.nodes.get(flow.nodes.size() - 1);
    return List.of(NodeType.EMAIL.value(), NodeType.DELAY.value()).contains(last.type())
            && last.data().config() != null
        ? last
        : null;
  }

  /**
   * The send window a clause names: "between 9 and 5" (a "to" not after its "from" without am/pm is
   * in the afternoon: 5 is 17:00), in the contact's zone unless the clause names one; every day
   * unless it says weekdays.
   */
  private static Map<String, Object> window(String clause, String lower) {
    Matcher between = BETWEEN.matcher(lower);
    if (!between.find()) {
      return null;
    }
    int fromHour = hour(between.group(1), between.group(3));
    int toHour = hour(between.group(4), between.group(6));
    if (toHour <= fromHour && between.group(6) == null && toHour < 12) {
      toHour += 12;
    }
    Map<String, Object> window = new LinkedHashMap<>();
    window.put(
        "days",
        lower.matches(".*\\b(weekdays?|business days|monday to friday|mon-fri)\\b.*")
            ? List.of(1, 2, 3, 4, 5)
            : List.of(1, 2, 3, 4, 5, 6, 7));
    window.put(
        "from",
        String.format(
            Locale.ROOT, "%02d:%s", fromHour, between.group(2) == null ? "00" : between.group(2)));
    window.put(
        "to",
        String.format(
            Locale.ROOT,
            "%02d:%s",
            toHour % 24,
            between.group(5) == null ? "00" : between.group(5)));
    Matcher zone = ZONE.matcher(clause);
    window.put("timezone", zone.find() ? zone.group(1) : "contact");
    return window;
  }

  private static int hour(String digits, String half) {
    int hour = Integer.parseInt(digits) % 24;
    if ("pm".equals(half) && hour < 12) {
      return hour + 12;
    }
    return "am".equals(half) && hour == 12 ? 0 : hour;
  }

  /** "wait until they reply", "wait for an answer", "wait until the deal changes stage". */
  private static final Pattern WAIT_UNTIL =
      Pattern.compile(
          "^(?:wait|hold)\\s+(?:until|till|for)\\s+(?!day\\b)(?!\\d)"
              + "(?=.*\\b(?:repl(?:y|ies|ied)|respon(?:d|ds|se)|answers?|writes? back|customer"
              + "|books? a meeting|meeting is booked|stage|deal (?:moves|changes)))");

  /** A wait's limit in a clause of its own: "wait until they reply, at most 3 days". */
  private static final Pattern WAIT_LIMIT =
      Pattern.compile(
          "(?i)((?:wait|hold)\\s+(?:until|till|for)\\s+[^,;.]+?)\\s*[,;]\\s*"
              + "((?:at most|for at most|up to|for up to|no (?:more|longer) than|max(?:imum)?"
              + "|within)\\s+\\S+\\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?))");

  private static String waitWithItsLimit(String prompt) {
    return WAIT_LIMIT.matcher(prompt).replaceAll("$1 $2");
  }

  /**
   * wait_until: the event the clause waits for (a reply, a customer, a meeting, a deal's stage), at
   * most its duration (3 days when it names none); the steps after it go on its {@code met} edge,
   * and "otherwise" opens its {@code timeout} edge.
   */
  private static void waitUntil(Builder flow, String clause, String lower) {
    Map<String, Object> config = new LinkedHashMap<>();
    if (lower.contains("customer")) {
      config.put("eventType", "contact.updated");
      config.put("filterField", "lifecycle_stage");
      config.put("filterValue", "customer");
    } else if (lower.contains("meeting")) {
      config.put("eventType", "meeting.booked");
    } else if (lower.contains("stage") || lower.matches(".*\\bdeal (?:moves|changes).*")) {
      config.put("eventType", "opportunity.stage_changed");
    } else {
      config.put("eventType", "conversation.message_received");
    }
    Matcher m = DURATION.matcher(lower);
    double minutes = 0;
    while (m.find()) {
      double n = number(m.group(1));
      String unit = m.group(2);
      minutes +=
          unit.startsWith("w")
              ? n * 7 * 24 * 60
              : unit.startsWith("d") ? n * 24 * 60 : unit.startsWith("h") ? n * 60 : n;
    }
    if (minutes == 0) {
      minutes = 3 * 24 * 60;
    }
    if (minutes % (24 * 60) == 0) {
      config.put("timeoutDays", whole(minutes / (24 * 60)));
    } else if (minutes % 60 == 0) {
      config.put("timeoutHours", whole(minutes / 60));
    } else {
      config.put("timeoutMinutes", whole(minutes));
    }
    flow.branchLabel = null;
    flow.condition = flow.add(NodeType.WAIT_UNTIL.value(), capitalise(clause), config);
    flow.branches("met", List.of("timeout"));
  }

  private static void email(Builder flow, String clause, String lower) {
    Map<String, Object> config = new LinkedHashMap<>();
    String subject = null;
    Matcher quoted = QUOTED.matcher(clause);
    if (quoted.find()) {
      subject = quoted.group(1).trim();
    } else {
      Matcher after =
          Pattern.compile("(?i)(?:subject|titled|called|saying)\\s*:?\\s+(.+)$").matcher(clause);
      if (after.find()) {
        subject = after.group(1).trim();
      }
    }
    if (subject == null) {
      Matcher kind =
          Pattern.compile("(?i)(?:an?|the)\\s+([a-z-]+(?:\\s+[a-z-]+)?)\\s+e-?mail")
              .matcher(clause);
      subject = kind.find() ? capitalise(kind.group(1)) : "Hello {{contact.first_name}}";
    }
    config.put("subject", subject);
    config.put("bodyHint", clause);
    Map<String, Object> window = window(clause, lower);
    if (window != null) {
      config.put("window", window);
    }
    flow.add(NodeType.EMAIL.value(), "Email: " + subject, config);
  }

  private static void createRecord(Builder flow, String clause, String lower) {
    Map<String, Object> mappings = new LinkedHashMap<>();
    String entity;
    String name = quotedOr(clause, null);
    if (lower.contains("task") || lower.contains("to-do") || lower.contains("todo")) {
      entity = "task";
      Matcher to = Pattern.compile("(?i)task\\s+(?:to|for)\\s+(.+)$").matcher(clause);
      mappings.put(
          "title", name != null ? name : to.find() ? capitalise(to.group(1)) : "Follow up");
      mappings.put("contact_id", "{{trigger.contact_id}}");
    } else if (lower.contains("note")) {
      entity = "note";
      mappings.put("content", name != null ? name : capitalise(clause));
      mappings.put("contact_id", "{{trigger.contact_id}}");
    } else if (lower.contains("opportunit") || lower.contains("deal")) {
      entity = "opportunity";
      mappings.put("name", name != null ? name : "{{trigger.company}} opportunity");
      mappings.put("contact_id", "{{trigger.contact_id}}");
    } else if (lower.contains("account") || lower.contains("company")) {
      entity = "account";
      mappings.put("name", name != null ? name : "{{trigger.company}}");
    } else if (lower.contains("contact") || lower.contains("lead")) {
      entity = "contact";
      mappings.put("email", "{{trigger.email}}");
      mappings.put("first_name", "{{trigger.first_name}}");
    } else {
      return;
    }
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("entityType", entity);
    config.put("fieldMappings", mappings);
    flow.add(NodeType.CREATE_RECORD.value(), "Create " + entity, config);
  }

  private static void updateRecord(Builder flow, String clause, String lower) {
    Matcher fromResponse =
        Pattern.compile(
                "(?i)^(?:set|update|fill)\\s+(.+?)\\s+(?:from|with|using)\\s+(?:the\\s+)?(?:response|result|answer|data)")
            .matcher(clause);
    Matcher setTo =
        Pattern.compile(
                "(?i)^(?:set|update|change)\\s+(.+?)\\s+(?:to|=)\\s+['\"]?([^'\"]+?)['\"]?$")
            .matcher(clause);
    Matcher markAs =
        Pattern.compile(
                "(?i)(?:mark|move|tag)\\s+(?:the\\s+)?(contact|lead|opportunity|deal|account|them|it|him|her)?\\s*(?:as|to)\\s+(?:stage\\s+)?['\"]?([^'\"]+?)['\"]?$")
            .matcher(clause);
    RecordFields.Resolution target;
    Object value;
    if (fromResponse.find()) {
      target = RecordFields.change(fromResponse.group(1), flow.start);
      String source =
          flow.count("http_request") > 0
              ? "http_request_" + flow.count("http_request") + ".body"
              : "trigger";
      value = target.clear() ? "{{" + source + "." + target.field().name() + "}}" : null;
    } else if (setTo.find()) {
      target = RecordFields.change(setTo.group(1), flow.start);
      value = setTo.group(2).trim();
    } else if (markAs.find()) {
      String record = markAs.group(1) == null ? "" : markAs.group(1).toLowerCase(Locale.ROOT);
      boolean deal =
          record.matches("opportunity|deal")
              || record.isEmpty() && lower.matches(".*\\b(stage|deal|opportunity)\\b.*");
      target =
          RecordFields.change(deal ? "the deal's stage" : "the contact's lead_status", flow.start);
      value = markAs.group(2).trim().replace(' ', '_');
    } else {
      return;
    }
    if (!target.clear()) {
      flow.unclear.add(new FlowGenerator.Unclear(clause, target.question()));
      return;
    }
    String entity = target.field().record();
    Map<String, Object> mappings = new LinkedHashMap<>();
    mappings.put(target.field().name(), value);
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("entityType", entity);
    config.put("fieldMappings", mappings);
    if (!entity.equals("contact")) {
      config.put("recordId", "{{trigger." + entity + "_id}}");
    }
    flow.add(NodeType.CRM_UPDATE.value(), "Update " + entity, config);
  }

  private static void transform(Builder flow, String clause, String lower) {
    Map<String, Object> config = new LinkedHashMap<>();
    String lastHttp =
        flow.count("http_request") > 0
            ? "http_request_" + flow.count("http_request") + ".body"
            : "trigger";
    if (lower.startsWith("filter")) {
      Matcher where =
          Pattern.compile("(?i)where\\s+([a-z_]+)\\s+(?:is|=|equals)\\s+['\"]?([^'\"]+?)['\"]?$")
              .matcher(clause);
      config.put("transformType", "filter");
      config.put(
          "mappings",
          where.find()
              ? Map.of(
                  "source",
                  lastHttp,
                  "field",
                  where.group(1),
                  "operator",
                  "equals",
                  "value",
                  where.group(2))
              : Map.of("source", lastHttp, "field", "id", "operator", "is_not_empty"));
    } else if (lower.startsWith("merge") || lower.startsWith("combine")) {
      config.put("transformType", "merge");
      config.put("mappings", Map.of("sources", List.of("trigger", lastHttp)));
    } else {
      config.put("transformType", "map");
      config.put("mappings", Map.of("summary", "{{" + lastHttp + "}}"));
    }
    flow.add(NodeType.DATA_TRANSFORM.value(), capitalise(clause), config);
  }

  // ---------------------------------------------------------------- helpers

  private static String messageFor(Builder flow, String clause) {
    String quoted = quotedOr(clause, null);
    if (quoted != null) {
      return quoted;
    }
    if (flow.count("http_request") > 0 && clause.toLowerCase(Locale.ROOT).contains("result")) {
      return "Result: {{http_request_" + flow.count("http_request") + ".body}}";
    }
    return capitalise(clause);
  }

  private static String quotedOr(String clause, String fallback) {
    Matcher quoted = QUOTED.matcher(clause);
    return quoted.find() ? quoted.group(1).trim() : fallback;
  }

  private static double number(String word) {
    return switch (word) {
      case "a", "an", "one" -> 1;
      case "two" -> 2;
      case "three" -> 3;
      case "four" -> 4;
      case "five" -> 5;
      case "six" -> 6;
      case "seven" -> 7;
      case "ten" -> 10;
      default -> Double.parseDouble(word);
    };
  }

  private static Number whole(double value) {
    return value == Math.rint(value) ? (Number) (int) value : (Number) value;
  }

  private static String host(String url) {
    return url.replaceFirst("^https?://", "").replaceFirst("/.*$", "");
  }

  private static String capitalise(String text) {
    String t = text.trim();
    String c = t.isEmpty() ? t : Character.toUpperCase(t.charAt(0)) + t.substring(1);
    return c.length() > 200 ? c.substring(0, 200) : c;
  }

  private static CanvasNode node(NodeType type, String label, Map<String, Object> config) {
    return new CanvasNode(
        UUID.randomUUID().toString(),
        type.value(),
        new Position(0, 0),
        new NodeData(capitalise(label), config));
  }
}
