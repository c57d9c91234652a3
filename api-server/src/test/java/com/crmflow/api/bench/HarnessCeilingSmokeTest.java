package com.crmflow.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * bench/harness-ceiling.sh still runs: a tiny run of bench/TriggerBench.java against
 * bench/NoopTriggerService.java exits 0 and prints the harness's RESULT line with every trigger
 * accepted and completed. Nothing here is timed: the figures are the benchmark's
 * (docs/benchmarks.md), not the build's.
 */
class HarnessCeilingSmokeTest {

  @Test
  void theHarnessCeilingRunsAndPrintsItsResult() throws Exception {
    BenchScript.Run run =
        BenchScript.run("bench/harness-ceiling.sh", List.of("20", "2"), Map.of("WARMUP", "0"), 2);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.lines())
        .as(run.output())
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith(
                        "RESULT label=noop n=20 sent=20 accepted=20 refused=0 errors=0"
                            + " completed=20 lost=0 ")
                    .contains("e2e_p99_ms=")
                    .contains("throughput_per_s="));
  }
}
