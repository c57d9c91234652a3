package com.crmflow.api.generate.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.crmflow.api.generate.FlowGenerator;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ConditionBuilderTest {

  private final ConditionBuilder conditions = new ConditionBuilder();

  @Test
  void amountsReadTheSameWrittenAnyWay() {
    assertThat(ConditionBuilder.comparable("10,000")).isEqualTo("10000");
    assertThat(ConditionBuilder.comparable("$10000")).isEqualTo("10000");
    assertThat(ConditionBuilder.comparable("10k")).isEqualTo("10000");
    assertThat(ConditionBuilder.comparable("10.000 €")).isEqualTo("10000");
    assertThat(ConditionBuilder.comparable("2.5k")).isEqualTo("2500");
    assertThat(ConditionBuilder.comparable("12.5")).isEqualTo("12.5");
    assertThat(ConditionBuilder.comparable("big")).isNull();
  }

  @Test
  void comparisonWordsBecomeOperatorsAndAtLeastHasNone() {
    assertThat(ConditionBuilder.operator("over")).isEqualTo("greater_than");
    assertThat(ConditionBuilder.operator("is greater than")).isEqualTo("greater_than");
    assertThat(ConditionBuilder.operator("below")).isEqualTo("less_than");
    assertThat(ConditionBuilder.operator("isn't")).isEqualTo("not_equals");
    assertThat(ConditionBuilder.operator("doesn't contain")).isEqualTo("not_contains");
    assertThat(ConditionBuilder.operator("is")).isEqualTo("equals");
    assertThat(ConditionBuilder.operator("at least")).isNull();
    assertThat(ConditionBuilder.operator(">=")).isNull();
  }

  @Test
  void aDealAmountOverAThresholdIsANumericComparisonWithTwoBranches() {
    FlowDraft flow = new FlowDraft(true);
    flow.startWith(new CrmEventTriggerBuilder().read(Clause.of("when a deal is created")), true);
    Clause clause = Clause.of("if the deal amount is over $10,000");
    assertThat(conditions.reads(clause, flow)).isTrue();
    conditions.build(clause, flow);
    flow.add("email", "Email: Big deal", new LinkedHashMap<>());
    flow.openNextBranch();
    flow.add("email", "Email: Small deal", new LinkedHashMap<>());

    Canvas canvas = flow.canvas(true).orElseThrow();
    CanvasNode condition = canvas.nodes().get(1);
    Map<String, String> labels =
        canvas.nodes().stream().collect(Collectors.toMap(CanvasNode::id, n -> n.data().label()));
    assertThat(flow.unclear()).isEmpty();
    assertThat(condition.data().config())
        .isEqualTo(
            Map.of("field", "{{trigger.value}}", "operator", "greater_than", "value", "10000"));
    assertThat(canvas.edges())
        .filteredOn(e -> e.source().equals(condition.id()))
        .extracting(CanvasEdge::label, e -> labels.get(e.target()))
        .containsExactly(tuple("true", "Email: Big deal"), tuple("false", "Email: Small deal"));
  }

  @Test
  void aSuccessAfterAnHttpRequestTestsThatRequestsStatus() {
    FlowDraft flow = new FlowDraft(true);
    flow.add("http_request", "GET example.com", new LinkedHashMap<>());
    flow.add("http_request", "GET example.org", new LinkedHashMap<>());

    conditions.build(Clause.of("if it succeeded"), flow);

    assertThat(flow.canvas(true).orElseThrow().nodes().get(3).data().config())
        .isEqualTo(
            Map.of(
                "field", "{{http_request_2.statusCode}}", "operator", "less_than", "value", "300"));
  }

  @Test
  void aConditionWithNoFieldOrAnAtLeastIsUnclearNotGuessed() {
    FlowDraft flow = new FlowDraft(true);
    flow.startWith(new CrmEventTriggerBuilder().read(Clause.of("when a deal is created")), true);

    conditions.build(Clause.of("if urgent"), flow);
    conditions.build(Clause.of("if the deal is big"), flow);
    conditions.build(Clause.of("if the amount is at least 5000"), flow);

    assertThat(flow.unclear())
        .extracting(FlowGenerator.Unclear::clause, FlowGenerator.Unclear::question)
        .containsExactly(
            tuple(
                "if urgent",
                "which field does it test, and against what? e.g. \"if the deal amount is over"
                    + " 10000\", \"if the contact's lifecycle stage is customer\""),
            tuple("if the deal is big", "which field of the deal does it test?"),
            tuple(
                "if the amount is at least 5000",
                "a condition compares with \"over\" or \"under\" (greater_than, less_than), not"
                    + " \"is at least\": say which"));
    // an unclear condition still takes its place, so that the clauses after it keep theirs
    assertThat(flow.size()).isEqualTo(3);
  }
}
