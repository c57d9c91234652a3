package com.crmflow.workflow.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A flow's goal judged on a contact as a condition compares, and checked as it is sent. */
class FlowGoalTest {

  private static final Map<String, Object> CUSTOMER =
      Map.of("field", "{{contact.lifecycle_stage}}", "operator", "equals", "value", "customer");

  @Test
  void aGoalHoldsWhenTheContactsFieldComparesAsAConditionWould() {
    assertThat(FlowGoal.holds(CUSTOMER, Map.of("lifecycle_stage", "customer"))).isTrue();
    assertThat(FlowGoal.holds(CUSTOMER, Map.of("lifecycle_stage", "lead"))).isFalse();
    assertThat(FlowGoal.holds(CUSTOMER, Map.of())).isFalse();
    assertThat(FlowGoal.holds(CUSTOMER, null)).as("no contact").isFalse();
    Map<String, Object> scored =
        Map.of("field", "{{contact.score}}", "operator", "greater_than", "value", 50);
    assertThat(FlowGoal.holds(scored, Map.of("score", 72))).isTrue();
    assertThat(FlowGoal.holds(scored, Map.of("score", "7"))).isFalse();
    Map<String, Object> phoned = Map.of("field", "{{contact.phone}}", "operator", "is_not_empty");
    assertThat(FlowGoal.holds(phoned, Map.of("phone", "+49 30 1234"))).isTrue();
  }

  @Test
  void aGoalIsAnObjectOfAFieldReadingTheContactAnOperatorAndTheValueItNeeds() {
    assertThat(FlowGoal.problems(CUSTOMER)).isEmpty();
    assertThat(FlowGoal.problems("customer")).containsOnlyKeys("");
    assertThat(FlowGoal.problems(Map.of("field", "{{trigger.plan}}", "operator", "equals")))
        .containsOnlyKeys("field", "value");
    assertThat(FlowGoal.problems(Map.of("field", "customer", "operator", "is")))
        .containsOnlyKeys("field", "operator");
    Map<String, Object> nested = new HashMap<>(CUSTOMER);
    nested.put("value", Map.of("a", 1));
    nested.put("colour", "blue");
    assertThat(FlowGoal.problems(nested)).containsOnlyKeys("value", "colour");
    assertThat(
            FlowGoal.problems(
                Map.of(
                    "field", "{{contact.owner}}", "operator", "equals", "value", "{{trigger.x}}")))
        .containsOnlyKeys("value");
  }
}
