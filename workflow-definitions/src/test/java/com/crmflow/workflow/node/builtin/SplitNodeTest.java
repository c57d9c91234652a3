package com.crmflow.workflow.node.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.crmflow.workflow.node.ConfigCheck;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A split's draw: the same for a run and node every time, spread evenly over many runs. */
class SplitNodeTest {

  @Test
  void aRunDrawsTheSameAtANodeEveryTimeAndDifferentlyAtAnother() {
    assertThat(SplitNode.draw("run-1", "split"))
        .isEqualTo(SplitNode.draw("run-1", "split"))
        .isNotEqualTo(SplitNode.draw("run-1", "split-2"))
        .isBetween(0.0, 100.0);
  }

  @Test
  void drawsSpreadEvenlyOverRuns() {
    int runs = 20_000;
    int belowHalf = 0;
    int belowSeventy = 0;
    for (int i = 0; i < runs; i++) {
      double draw = SplitNode.draw("run-" + i, "split");
      belowHalf += draw < 50 ? 1 : 0;
      belowSeventy += draw < 70 ? 1 : 0;
    }
    assertThat(belowHalf / (double) runs).isCloseTo(0.5, within(0.02));
    assertThat(belowSeventy / (double) runs).isCloseTo(0.7, within(0.02));
  }

  @Test
  void branchesAreCheckedAsAWhole() {
    assertThat(ConfigCheck.BRANCHES.problem(List.of(branch("A", 50), branch("B", 50)))).isNull();
    assertThat(ConfigCheck.BRANCHES.problem(List.of(branch("A", 50), branch("B", 40))))
        .isEqualTo("has percents that sum to 90, not 100");
    assertThat(ConfigCheck.BRANCHES.problem(List.of(branch("A", 50), branch("A", 50))))
        .isEqualTo("names branch A twice");
    assertThat(ConfigCheck.BRANCHES.problem(List.of(branch("A", 100))))
        .isEqualTo("must hold 2 to 20 branches");
    assertThat(ConfigCheck.BRANCHES.problem(List.of(branch("A", 0), branch("B", 100))))
        .startsWith("gives branch A 0%");
    assertThat(ConfigCheck.BRANCHES.problem(List.of(Map.of("label", "A"), branch("B", 100))))
        .startsWith("must hold branches {label");
    assertThat(ConfigCheck.BRANCHES.problem(Map.of("A", 50))).startsWith("must be an array");
    assertThat(
            ConfigCheck.BRANCHES.problem(
                List.of(branch("A", 33.3), branch("B", 33.3), branch("C", 33.4))))
        .isNull();
  }

  private static Map<String, Object> branch(String label, double percent) {
    return Map.of("label", label, "percent", percent);
  }
}
