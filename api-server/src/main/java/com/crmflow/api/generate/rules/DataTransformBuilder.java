package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * data_transform: "filter the results where status is active", "merge ...", "map ..."; it reads the
 * last http_request's response body, or the trigger when there is none.
 */
final class DataTransformBuilder implements StepBuilder {

  private static final Pattern WHERE =
      Pattern.compile("(?i)where\\s+([a-z_]+)\\s+(?:is|=|equals)\\s+['\"]?([^'\"]+?)['\"]?$");

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    return clause.lower().matches("^(map|merge|filter|transform|combine|extract)\\b.*");
  }

  @Override
  public void build(Clause clause, FlowDraft flow) {
    String lower = clause.lower();
    Map<String, Object> config = new LinkedHashMap<>();
    String source = flow.responseOrTrigger();
    if (lower.startsWith("filter")) {
      Matcher where = WHERE.matcher(clause.text());
      config.put("transformType", "filter");
      config.put(
          "mappings",
          where.find()
              ? Map.of(
                  "source",
                  source,
                  "field",
                  where.group(1),
                  "operator",
                  "equals",
                  "value",
                  where.group(2))
              : Map.of("source", source, "field", "id", "operator", "is_not_empty"));
    } else if (lower.startsWith("merge") || lower.startsWith("combine")) {
      config.put("transformType", "merge");
      config.put("mappings", Map.of("sources", List.of("trigger", source)));
    } else {
      config.put("transformType", "map");
      config.put("mappings", Map.of("summary", "{{" + source + "}}"));
    }
    flow.add(NodeType.DATA_TRANSFORM.value(), Words.capitalise(clause.text()), config);
  }
}
