package com.crmflow.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bench scripts of the trigger path still run: a tiny run of each exits 0 and prints its RESULT
 * lines. trigger-bench.sh, its floor, tracing-bench.sh and profile-trigger.sh share
 * trigger-bench.sh's fixed ports, so they run one after another in this class, beside {@link
 * JourneyBenchScriptsSmokeIT} in another JVM. They start the packaged jar, so they run after {@code
 * package} (failsafe). Nothing here is timed: the figures are the benchmarks' (docs/benchmarks.md),
 * not the build's.
 */
class TriggerBenchScriptsSmokeIT {

  @Test
  void theTriggerBenchRunsBothFlowsAndPrintsTheirResults() throws Exception {
    BenchScript.Run run =
        BenchScript.run(
            "bench/trigger-bench.sh",
            List.of("20", "2"),
            BenchScript.withJar(Map.of("WARMUP", "0", "FLOWS", "a b", "BUCKETS", "shared")),
            4);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.lines())
        .as(run.output())
        .contains("trigger quota on, its buckets shared in PostgreSQL");
    for (String flow : List.of("flow-a", "flow-b")) {
      assertThat(run.lines())
          .as(run.output())
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith("RESULT label=" + flow + " n=20 sent=20 ")
                      .containsPattern(" accepted=(\\d+) refused=(\\d+) errors=0 completed=")
                      .contains(" lost=0 ")
                      .contains("e2e_p99_ms="))
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith("CPU " + flow + " per completed run: service ")
                      .contains("; without it "));
    }
  }

  @Test
  void theTriggerBenchRunsTheFloorOnTheServicesLibrariesAndPrintsItsResultAndCpu()
      throws Exception {
    BenchScript.Run run =
        BenchScript.run(
            "bench/trigger-bench.sh",
            List.of("20", "2"),
            BenchScript.withJar(Map.of("WARMUP", "0", "BENCH_SERVICE", "floor", "JIT_CURVE", "1")),
            3);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.lines())
        .as(run.output())
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("RESULT label=floor-a n=20 sent=20 accepted=20 refused=0 errors=0")
                    .contains(" completed=20 lost=0 duplicates=0 ")
                    .contains("e2e_p99_ms="))
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("CPU floor-a per completed run: service ")
                    .containsPattern("; without it [0-9.]+ ms\\), temporal [0-9.]+ ms"))
        // the curve counts the floor's completed runs (its GET /completed), not run records
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches("JIT curve: \\d+ runs completed; the last \\d+: service .* ms"));
  }

  @Test
  void theTracingBenchRunsEachConfigurationAndPrintsItsRanges() throws Exception {
    BenchScript.Run run =
        BenchScript.run(
            "bench/tracing-bench.sh",
            List.of("20", "2"),
            BenchScript.withJar(Map.of("WARMUP", "0", "ROUNDS", "1")),
            8);

    assertThat(run.exitCode()).as(run.output()).isZero();
    for (String config : List.of("off", "on-1.0", "on-0.1")) {
      assertThat(run.lines())
          .as(run.output())
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith("RESULT config=" + config + " round=1 completed=20 ")
                      .containsPattern(" service_cpu_ms_per_run=[0-9.]+ "))
          .anySatisfy(line -> assertThat(line).startsWith("RANGE config=" + config + " runs=1 "));
    }
    // the runs traced at 1.0 reached the Zipkin server through the OTLP exporter and the collector
    assertThat(run.lines())
        .as(run.output())
        .anySatisfy(
            line -> assertThat(line).matches("EXPORTED traces=([2-9]\\d|\\d{3,}) spans=\\d+"));
  }

  @Test
  void theTriggerProfileRunsAndPrintsTheServicesCpuByPart() throws Exception {
    // 900 triggers keep the service busy well past the 6 s after it answers, when the profiler
    // attaches for 4 s; counted from its answer, not its launch, since a start slowed by the other
    // IT JVM or another build would put the profile on the start (JIT and Spring, no workflow task)
    BenchScript.Run run =
        BenchScript.run(
            "bench/profile-trigger.sh",
            List.of("900", "6", "4"),
            BenchScript.withJar(Map.of("WARMUP", "0", "FLOWS", "a", "AFTER_UP", "1")),
            4);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.lines())
        .as(run.output())
        .anySatisfy(line -> assertThat(line).startsWith("RESULT label=flow-a n=900 sent=900 "))
        .anySatisfy(line -> assertThat(line).matches(" *[0-9.]+%  workflow tasks: .*"))
        .anySatisfy(
            line -> assertThat(line).startsWith("flame graphs: target/trigger-profile.svg"));
    assertThat(Files.readString(Path.of("..", "target", "trigger-profile.svg")))
        .startsWith("<svg ")
        // the title as SVG (XML) writes it, its apostrophe escaped
        .contains("flow a: the service&#x27;s CPU");
  }
}
