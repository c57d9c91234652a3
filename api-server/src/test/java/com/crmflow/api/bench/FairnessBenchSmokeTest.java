package com.crmflow.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.TestJvms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * bench/fairness-bench.sh still runs: a tiny run of it against this test's service prints both
 * phases and the three targets and exits 0. Nothing here is timed: the figures are the benchmark's
 * (docs/benchmarks.md), not the build's.
 */
class FairnessBenchSmokeTest extends ApiTest {

  @Test
  void theFairnessBenchRunsAndPrintsItsReport() throws IOException, InterruptedException {
    Path repo = Path.of("").toAbsolutePath().getParent();
    ProcessBuilder bench =
        new ProcessBuilder("bash", "bench/fairness-bench.sh")
            .directory(repo.toFile())
            .redirectErrorStream(true);
    bench.environment().putAll(TestJvms.environment());
    bench.environment().put("BASE_URL", baseUrl());
    bench.environment().put("ADMIN_TOKEN", ADMIN_TOKEN);
    bench
        .environment()
        .put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    bench.environment().put("RUNS", "4");
    bench.environment().put("CALLERS", "2");
    bench.environment().put("B_INTERVAL_MS", "100");
    bench.environment().put("FLOOD_WARMUP_S", "1");
    bench.environment().put("SAMPLE_MS", "50");
    Process running = bench.start();
    running.getOutputStream().close();
    String output;
    try (var out = running.getInputStream()) {
      output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(running.waitFor(3, TimeUnit.MINUTES)).as(output).isTrue();

    assertThat(running.exitValue()).as(output).isZero();
    List<String> lines = output.lines().toList();
    assertThat(lines)
        .as(output)
        .anySatisfy(line -> assertThat(line).startsWith("RESULT quiet b_runs=4 "))
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("RESULT flood b_runs=4 ")
                    .contains("b_trigger_to_completed_p95_ms=")
                    .contains("b_contacts_p95_ms=")
                    .contains("a_answers={"));
    assertThat(lines.stream().filter(line -> line.startsWith("TARGET ")))
        .as(output)
        .hasSize(3)
        .anySatisfy(line -> assertThat(line).startsWith("TARGET b_trigger_to_completed_p95 "))
        .anySatisfy(line -> assertThat(line).startsWith("TARGET b_trigger_answer_p50 "))
        .anySatisfy(line -> assertThat(line).startsWith("TARGET b_contacts_p95 "))
        .allSatisfy(line -> assertThat(line).matches(".*: (met|missed)$"));
  }
}
