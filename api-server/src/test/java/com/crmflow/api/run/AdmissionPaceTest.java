package com.crmflow.api.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The pace's arithmetic: the floor, the burst, how it follows ends and the due count (a unit). */
class AdmissionPaceTest {

  private static final int DUE_LIMIT = 32; // a target of 16 due runs

  private Instant now = Instant.parse("2026-11-23T10:00:00Z");
  private final AdmissionPace pace = new AdmissionPace(DUE_LIMIT, now);

  @Test
  void afterAQuietSpellABurstComesInAtOnceThenCallsAreSpacedAtTheFloor() {
    AdmissionPace.Slot slot = new AdmissionPace.Slot(now);
    now = now.plusSeconds(1);

    assertThat(callsLetInAtOnce(slot, 1)).as("50 ms of 50/s, rounded up").isEqualTo(3);
    assertThat(pace.perSecond()).isEqualTo(AdmissionPace.FLOOR_PER_SECOND);
    assertThat(slot.untilNext(now)).isEqualTo(Duration.ofMillis(10));
    assertThat(slot.book(now, pace.spacing(1)))
        .as("the next call is booked on the next slot")
        .isEqualTo(now.plusMillis(10));
    assertThat(slot.untilNext(now)).isEqualTo(Duration.ofMillis(30));
  }

  @Test
  void whileFewRunsAreDueThePaceClimbsAboveTheRateAtWhichRunsEnd() {
    runsEnd(300, 2);

    assertThat(pace.perSecond()).isCloseTo(300 * AdmissionPace.CLIMB, withinPercentage(1));
  }

  @Test
  void nearTheTargetThePaceIsTheRateAtWhichRunsEnd() {
    runsEnd(300, DUE_LIMIT / 2);

    assertThat(pace.perSecond()).isCloseTo(300, withinPercentage(1));
  }

  @Test
  void whileManyRunsAreDueThePaceFallsBelowTheRateAtWhichRunsEnd() {
    runsEnd(300, 2 * DUE_LIMIT); // three targets over: 15% slower

    assertThat(pace.perSecond()).isCloseTo(300 * 0.85, withinPercentage(1));
  }

  @Test
  void aPauseLeavesThePaceWhereItWas() {
    runsEnd(300, DUE_LIMIT / 2);
    now = now.plusSeconds(10); // nothing ends, nothing comes

    pace.take(now, 0, false);
    assertThat(pace.perSecond()).as("not the floor").isGreaterThanOrEqualTo(300);
  }

  @Test
  void whileFewRunsAreDueASpellWithoutEndsDoesNotLowerThePace() {
    runsEnd(300, DUE_LIMIT / 2);
    now = now.plusSeconds(5); // a quiet spell

    runsEnd(0, 0); // a burst whose runs all sleep on a delay first: nothing ends, nothing is due

    assertThat(pace.perSecond())
        .as("the rate of ends found, climbing; not the floor")
        .isCloseTo(300 * AdmissionPace.CLIMB, withinPercentage(1));
  }

  @Test
  void whileFewRunsAreDueFewerEndsStillLowerThePace() {
    runsEnd(300, DUE_LIMIT / 2);

    runsEnd(100, 2); // the callers slowed down: fewer runs, and they end

    assertThat(pace.perSecond()).isCloseTo(100 * AdmissionPace.CLIMB, withinPercentage(1));
  }

  @Test
  void whileRunsAreDueFewerEndsLowerThePace() {
    runsEnd(300, DUE_LIMIT / 2);

    runsEnd(100, DUE_LIMIT / 2); // the process got slower

    assertThat(pace.perSecond()).isCloseTo(100, withinPercentage(1));
  }

  @Test
  void callsThatDoNotWaitDoNotMeasureTheRateOfEnds() {
    for (int tick = 0; tick < 100; tick++) {
      now = now.plusMillis(100);
      pace.take(now, 0, false); // callers slower than the pace, and no run ends
    }
    runsEnd(300, 2);

    assertThat(pace.perSecond()).isCloseTo(300 * AdmissionPace.CLIMB, withinPercentage(1));
  }

  @Test
  void slotsAreOneOverThePaceApart() {
    runsEnd(300, DUE_LIMIT / 2);
    AdmissionPace.Slot slot = new AdmissionPace.Slot(now);
    callsLetInAtOnce(slot, 1);

    now = now.plus(slot.untilNext(now));
    assertThat(slot.book(now, pace.spacing(1))).isEqualTo(now);

    assertThat(slot.untilNext(now).toNanos())
        .isCloseTo((long) (1e9 / pace.perSecond()), within(1_000L));
  }

  @Test
  void tenantsSharingThePaceHaveTheirSlotsThatManyTimesFurtherApart() {
    runsEnd(300, DUE_LIMIT / 2);

    assertThat(pace.spacing(3).toNanos())
        .isCloseTo(3 * pace.spacing(1).toNanos(), within(3L))
        .isCloseTo((long) (3e9 / pace.perSecond()), within(3L));
    assertThat(pace.spacing(0)).as("at least one share").isEqualTo(pace.spacing(1));
  }

  /**
   * Ten seconds of runs ending at perSecond while dueRuns are due, with a call let in each 100 ms
   * after waiting for its slot.
   */
  private void runsEnd(int perSecond, int dueRuns) {
    for (int tick = 0; tick < 100; tick++) {
      for (int i = 0; i < perSecond / 10; i++) {
        pace.runEnded();
      }
      now = now.plusMillis(100);
      pace.take(now, dueRuns, true);
    }
  }

  /** Calls booked on a slot that is now, the clock standing still, for one of this many tenants. */
  private int callsLetInAtOnce(AdmissionPace.Slot slot, int tenants) {
    int letIn = 0;
    while (slot.untilNext(now).compareTo(Duration.ZERO) <= 0) {
      assertThat(slot.book(now, pace.spacing(tenants))).isEqualTo(now);
      pace.take(now, 0, false);
      letIn++;
    }
    return letIn;
  }
}
