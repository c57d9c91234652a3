package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * crm_update: "set lead_status to engaged", "update the company from the response", "mark the
 * contact as qualified", "move the opportunity to closed_won". The record and field are read
 * against what the flow starts on ({@link RecordFields}): a deal's field in a flow with no deal, or
 * a field no record has, makes the clause unclear.
 */
final class CrmUpdateBuilder implements StepBuilder {

  private static final Pattern FROM_RESPONSE =
      Pattern.compile(
          "(?i)^(?:set|update|fill)\\s+(.+?)\\s+(?:from|with|using)\\s+(?:the\\s+)?(?:response|result|answer|data)");
  private static final Pattern SET_TO =
      Pattern.compile("(?i)^(?:set|update|change)\\s+(.+?)\\s+(?:to|=)\\s+['\"]?([^'\"]+?)['\"]?$");
  private static final Pattern MARK_AS =
      Pattern.compile(
          "(?i)(?:mark|move|tag)\\s+(?:the\\s+)?(contact|lead|opportunity|deal|account|them|it|him|her)?\\s*(?:as|to)\\s+(?:stage\\s+)?['\"]?([^'\"]+?)['\"]?$");

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    return clause.lower().matches("^(set|update|mark|move|change|assign|tag)\\b.*");
  }

  @Override
  public void build(Clause update, FlowDraft flow) {
    String clause = update.text();
    Matcher fromResponse = FROM_RESPONSE.matcher(clause);
    Matcher setTo = SET_TO.matcher(clause);
    Matcher markAs = MARK_AS.matcher(clause);
    RecordFields.Resolution target;
    Object value;
    if (fromResponse.find()) {
      target = RecordFields.change(fromResponse.group(1), flow.start());
      String source = flow.responseOrTrigger();
      value = target.clear() ? "{{" + source + "." + target.field().name() + "}}" : null;
    } else if (setTo.find()) {
      target = RecordFields.change(setTo.group(1), flow.start());
      value = setTo.group(2).trim();
    } else if (markAs.find()) {
      String record = markAs.group(1) == null ? "" : markAs.group(1).toLowerCase(Locale.ROOT);
      boolean deal =
          record.matches("opportunity|deal")
              || record.isEmpty() && update.lower().matches(".*\\b(stage|deal|opportunity)\\b.*");
      target =
          RecordFields.change(
              deal ? "the deal's stage" : "the contact's lead_status", flow.start());
      value = markAs.group(2).trim().replace(' ', '_');
    } else {
      return;
    }
    if (!target.clear()) {
      flow.unclear(clause, target.question());
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
}
