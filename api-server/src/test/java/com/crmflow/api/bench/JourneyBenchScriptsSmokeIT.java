package com.crmflow.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bench scripts of journeys still run: a tiny run of enroll-bench.sh, waiting-bench.sh,
 * goal-bench.sh, move-bench.sh and stats-bench.sh each exits 0 and prints its RESULT lines. Each
 * script has fixed ports of its own, none of trigger-bench.sh's ({@link TriggerBenchScriptsSmokeIT}
 * runs beside them in another JVM). They start the packaged jar, so they run after {@code package}
 * (failsafe). Nothing here is timed: the figures are the benchmarks' (docs/benchmarks.md), not the
 * build's.
 */
class JourneyBenchScriptsSmokeIT {

  @Test
  void theEnrollBenchRunsAndPrintsItsResults() throws Exception {
    BenchScript.Run run =
        BenchScript.run(
            "bench/enroll-bench.sh", List.of("20", "2"), BenchScript.withJar(Map.of()), 10);

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
            BenchScript.withJar(
                Map.of("DELAY_SECONDS", "20", "WAIT_WINDOW_S", "2", "QUIET_N", "10")),
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
                    .startsWith("RESULT burst runs=20 ")
                    .endsWith(" lost=0 emails_twice=0"))
        .anySatisfy(
            line -> assertThat(line).matches("RESULT trigger_e2e_p95_ms quiet=\\d+ burst=\\d+"));
  }

  @Test
  void theGoalBenchEndsTheUpdatedContactsRunsAndPrintsHowSoon() throws Exception {
    BenchScript.Run run =
        BenchScript.run(
            "bench/goal-bench.sh", List.of("20", "2"), BenchScript.withJar(Map.of()), 10);

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
            BenchScript.withJar(Map.of("DELAY_SECONDS", "300", "TRIGGER_N", "40", "PAGE", "2")),
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
            BenchScript.withJar(Map.of("REAL", "5", "DAYS", "3")),
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
}
