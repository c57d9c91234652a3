package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.event.EventNames;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * crm_event_trigger: "when a contact is created with lead_status qualified", "when an opportunity
 * changes stage", "once a deal is won", "after a meeting is booked".
 */
final class CrmEventTriggerBuilder implements TriggerBuilder {

  /** How a trigger clause starts ("when ...", "after a meeting is booked"). */
  static final Pattern EVENT_START =
      Pattern.compile("^(?:when|whenever|once|on|after|if a)\\b(?!\\s+\\d)");

  @Override
  public CanvasNode read(Clause clause) {
    String lower = clause.lower();
    if (!EVENT_START.matcher(lower).find()) {
      return null;
    }
    String event = event(lower);
    if (event == null) {
      return null;
    }
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("eventType", event);
    Matcher filter =
        Pattern.compile(
                "(?i)\\bwith\\s+([a-z_]+)\\s+(?:=|is|of|equal to)?\\s*['\"]?([A-Za-z0-9_.@-]+)['\"]?")
            .matcher(clause.text());
    if (filter.find()) {
      config.put("filterField", filter.group(1).toLowerCase(Locale.ROOT));
      config.put("filterValue", filter.group(2));
    } else if (event.equals(EventNames.OPPORTUNITY_STAGE_CHANGED)
        && lower.matches(".*\\b(won|lost)\\b.*")) {
      config.put("filterField", "stage");
      config.put("filterValue", lower.matches(".*\\bwon\\b.*") ? "closed_won" : "closed_lost");
    }
    return TriggerBuilder.node(NodeType.CRM_EVENT_TRIGGER, "On " + event, config);
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
}
