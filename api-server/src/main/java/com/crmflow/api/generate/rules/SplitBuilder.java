package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.NodeType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * split: branches A, B, ... by the percents named; the steps after it go on A, and each "otherwise"
 * opens the next branch.
 */
final class SplitBuilder implements StepBuilder {

  /** "split 50/50", "split the contacts 70/30", "a/b test 40/30/30". */
  private static final Pattern SPLIT =
      Pattern.compile(
          "^(?:split|a/b[- ]test)\\b[^0-9]*(\\d{1,3}(?:\\.\\d+)?(?:\\s*/\\s*\\d{1,3}(?:\\.\\d+)?)+)");

  @Override
  public boolean reads(Clause clause, FlowDraft flow) {
    return SPLIT.matcher(clause.lower()).find();
  }

  @Override
  public void build(Clause clause, FlowDraft flow) {
    Matcher split = SPLIT.matcher(clause.lower());
    if (!split.find()) {
      return;
    }
    List<Map<String, Object>> branches = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (String percent : split.group(1).split("\\s*/\\s*")) {
      String label = String.valueOf((char) ('A' + labels.size()));
      labels.add(label);
      Map<String, Object> branch = new LinkedHashMap<>();
      branch.put("label", label);
      branch.put("percent", Words.whole(Double.parseDouble(percent)));
      branches.add(branch);
    }
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("branches", branches);
    flow.addBranching(
        NodeType.SPLIT.value(),
        Words.capitalise(clause.text()),
        config,
        labels.get(0),
        labels.subList(1, labels.size()));
  }
}
