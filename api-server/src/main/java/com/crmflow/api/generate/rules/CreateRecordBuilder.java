package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * create_record: "create a task to ...", "add a note ...", "create an opportunity", "create an
 * account", "create a contact"; its name or title is the quoted text when there is one. A clause
 * that names no record it can create adds nothing.
 */
final class CreateRecordBuilder implements StepBuilder {

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    return clause.lower().matches("^(create|add|open|log)\\b.*");
  }

  @Override
  public void build(Clause create, FlowDraft flow) {
    String clause = create.text();
    String lower = create.lower();
    Map<String, Object> mappings = new LinkedHashMap<>();
    String entity;
    String name = Words.quotedOr(clause, null);
    if (lower.contains("task") || lower.contains("to-do") || lower.contains("todo")) {
      entity = "task";
      Matcher to = Pattern.compile("(?i)task\\s+(?:to|for)\\s+(.+)$").matcher(clause);
      mappings.put(
          "title", name != null ? name : to.find() ? Words.capitalise(to.group(1)) : "Follow up");
      mappings.put("contact_id", "{{trigger.contact_id}}");
    } else if (lower.contains("note")) {
      entity = "note";
      mappings.put("content", name != null ? name : Words.capitalise(clause));
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
}
