package com.crmflow.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.OtelCollector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bench scripts that start their own service from the extracted jar still run: a tiny run of
 * each exits 0 and prints its RESULT lines. They run after {@code package} (failsafe), on the
 * scripts' fixed ports. Nothing here is timed: the figures are the benchmarks'
 * (docs/benchmarks.md), not the build's.
 */
class BenchScriptsSmokeIT {

  private static Map<String, String> withJar(Map<String, String> env) throws Exception {
    Path jar = Path.of("target", "app", "api-server-0.1.0-SNAPSHOT.jar").toAbsolutePath();
    assertThat(Files.isRegularFile(jar)).as("the extracted jar %s", jar).isTrue();
    var all = new java.util.HashMap<>(env);
    all.put("BENCH_JAR", jar.toString());
    all.put("BENCH_JAVA_OPTS", "-Xmx512m");
    return all;
  }

  @Test
  void theTriggerBenchRunsBothFlowsAndPrintsTheirResults() throws Exception {
    BenchScript.Run run =
        BenchScript.run(
            "bench/trigger-bench.sh",
            List.of("20", "2"),
            withJar(Map.of("WARMUP", "0", "FLOWS", "a b", "BUCKETS", "shared")),
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
            withJar(Map.of("WARMUP", "0", "BENCH_SERVICE", "floor", "JIT_CURVE", "1")),
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
    // built before the script on a new machine, so that its minutes count the bench, not the build
    OtelCollector.built();
    BenchScript.Run run =
        BenchScript.run(
            "bench/tracing-bench.sh",
            List.of("20", "2"),
            withJar(Map.of("WARMUP", "0", "ROUNDS", "1")),
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
  void theEnrollBenchRunsAndPrintsItsResults() throws Exception {
    BenchScript.Run run =
        BenchScript.run("bench/enroll-bench.sh", List.of("20", "2"), withJar(Map.of()), 10);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.lines())
        .as(run.output())
        .anySatisfy(line -> assertThat(line).startsWith("RESULT enrollments=20 "))
        .anySatisfy(line -> assertThat(line).startsWith("RESULT all_waiting_after_enroll_s="))
        .anySatisfy(line -> assertThat(line).startsWith("RESULT heap_after_full_gc: "))
        .anySatisfy(line -> assertThat(line).startsWith("RESULT rss_mb service="));
  }

  @Test
  void theWaitingBenchEnrollsWaitsAndBurstsAndPrintsEachFigure() throws Exception {
    BenchScript.Run run =
        BenchScript.run(
            "bench/waiting-bench.sh",
            List.of("20"),
            // every delay ends when a send window opens, as for the bench's largest burst, on a
            // service stopped before it and started again (the running service's burst differs
            // only by not stopping it)
            withJar(
                Map.of(
                    "BURST_AFTER_S", "150", "RESTART", "1", "WAIT_WINDOW_S", "2", "QUIET_N", "10")),
            15);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.lines())
        .as(run.output())
        .anySatisfy(line -> assertThat(line).startsWith("RESULT enrollments=20 job_s="))
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches(
                        "RESULT waiting_cpu_ms_per_run_hour service=[0-9.]+ temporal=[0-9.]+"
                            + " postgres=[0-9.]+ .*"))
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches("RESULT disk_bytes_per_waiting_run temporal=\\d+ service=-?\\d+ .*"))
        .anySatisfy(line -> assertThat(line).matches("RESULT heap_after_full_gc_mb=\\d+ .*"))
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("RESULT burst runs=20 ended_before_it=0 service_up_after_s=")
                    .endsWith(" lost=0 emails_twice=0"))
        .anySatisfy(
            line -> assertThat(line).matches("RESULT trigger_e2e_p95_ms quiet=\\d+ burst=\\d+"));
    for (String phase : List.of("quiet", "burst")) {
      // each new trigger's run read back from its row and its history in Temporal
      assertThat(run.lines())
          .as(run.output())
          .anySatisfy(
              line ->
                  assertThat(line)
                      .matches(
                          "RESULT trigger_phases label="
                              + phase
                              + " runs=([1-9]|10) unread=0 \\(medians\\)"
                              + " admitted_and_stored_ms=\\d+ to_workflow_start_ms=\\d+"
                              + " to_first_task_ms=\\d+ to_call_scheduled_ms=\\d+"
                              + " total_to_call_scheduled_ms=\\d+"));
    }
  }

  @Test
  void theGoalBenchEndsTheUpdatedContactsRunsAndPrintsHowSoon() throws Exception {
    BenchScript.Run run =
        BenchScript.run("bench/goal-bench.sh", List.of("20", "2"), withJar(Map.of()), 10);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.lines())
        .as(run.output())
        .anySatisfy(
            line ->
                assertThat(line)
                    .isEqualTo(
                        "CHECK ended_at_goal=2 of updated=2, others_still_waiting=18 of 18,"
                            + " ended_otherwise=0, emails=0"))
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches(
                        "RESULT goal runs=20 updated=2 ended=2 p50_ms=\\d+ p95_ms=\\d+"
                            + " max_ms=\\d+ within_60s=2"));
  }

  @Test
  void theMoveBenchMovesTheWaitingRunsAndFindsEachMovedOnceAfterAKill() throws Exception {
    BenchScript.Run run =
        BenchScript.run(
            "bench/move-bench.sh",
            List.of("20"),
            withJar(Map.of("DELAY_SECONDS", "300", "TRIGGER_N", "40", "PAGE", "2")),
            10);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.lines())
        .as(run.output())
        .anySatisfy(
            line -> assertThat(line).matches("RESULT dry_run_s=[0-9.]+ runs=20 would_move=20 .*"))
        .anySatisfy(line -> assertThat(line).matches("RESULT move_s=[0-9.]+ runs=20 moved=20"))
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches(
                        "RESULT cpu_ms_per_trigger service=[0-9.]+ temporal=[0-9.]+"
                            + " postgres=[0-9.]+ total=[0-9.]+"))
        // the triggers' part taken out of a move of 20 runs can leave a small negative
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches(
                        "RESULT cpu_ms_per_moved_run service=-?[0-9.]+ temporal=-?[0-9.]+"
                            + " postgres=-?[0-9.]+ total=-?[0-9.]+"))
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches("RESULT trigger_e2e_p95_ms without_move=\\d+ with_move=\\d+"))
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("RESULT after_kill runs=20 ")
                    .contains(" moved_once=20 lost=0 emails=20 v3_emails=20 emails_twice=0"));
  }

  @Test
  void theStatsBenchCountsItsRunsAndPrintsBothTimings() throws Exception {
    BenchScript.Run run =
        BenchScript.run(
            "bench/stats-bench.sh",
            List.of("20", "3"),
            withJar(Map.of("REAL", "5", "DAYS", "3")),
            6);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.lines())
        .as(run.output())
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("CHECK all time: hook passed=20, split A=")
                    .contains(" waiting=5, delays passed=15 "))
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches("RESULT stats=all-time runs=20 requests=3 p50_ms=[0-9.]+ .*"))
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches("RESULT stats=since-30-days runs=20 requests=3 p50_ms=[0-9.]+ .*"));
  }

  @Test
  void theStartBenchStartsTheServiceFromEachFormOfTheJarAndPrintsItsTimes() throws Exception {
    BenchScript.Run run =
        BenchScript.run("bench/start-bench.sh", List.of(), withJar(Map.of("ROUNDS", "1")), 4);

    assertThat(run.exitCode()).as(run.output()).isZero();
    for (String form : List.of("packaged", "extracted")) {
      assertThat(run.lines())
          .as(run.output())
          .anySatisfy(
              line ->
                  assertThat(line)
                      .matches("RESULT form=" + form + " ready_s=[0-9.]+ jvm_cpu_s=[0-9.]+"));
    }
  }

  @Test
  void theTriggerProfileRunsAndPrintsTheServicesCpuByPart() throws Exception {
    // 900 triggers keep the service busy well past the 6 s after the harness starts firing them,
    // when the profiler attaches for 4 s; counted from the firing, not the launch, since a start or
    // a harness slowed by the other IT JVM or another build would put the profile on an idle
    // service (JIT and Spring, no workflow task)
    BenchScript.Run run =
        BenchScript.run(
            "bench/profile-trigger.sh",
            List.of("900", "6", "4"),
            withJar(Map.of("WARMUP", "0", "FLOWS", "a", "AFTER_UP", "1")),
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
