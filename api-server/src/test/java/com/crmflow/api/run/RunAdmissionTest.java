package com.crmflow.api.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What counts as a due run, how the limit is shared between tenants, and that a call is decided at
 * once (a unit: a settable clock; nothing here sleeps).
 */
class RunAdmissionTest {

  private static final UUID A = UUID.randomUUID();
  private static final UUID B = UUID.randomUUID();

  private final SettableClock clock = new SettableClock();
  private final MeterRegistry meters = new SimpleMeterRegistry();
  private final RunAdmission admission =
      new RunAdmission(4, Duration.ofMillis(100), false, clock, meters);

  @Test
  void aTenantOverItsShareIsRefusedWhileAnotherTenantIsLetIn() {
    List<UUID> runsOfA = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      UUID run = UUID.randomUUID();
      assertThat(admission.decide(A, run).admitted())
          .as("alone, A may take the whole limit")
          .isTrue();
      runsOfA.add(run);
    }
    RunAdmission.Decision refused = admission.decide(A, UUID.randomUUID());
    assertThat(refused.admitted()).isFalse();
    assertThat(refused.reason()).isEqualTo("due");
    assertThat(refused.retryAfterSeconds()).isEqualTo(1);

    assertThat(admission.decide(B, UUID.randomUUID()).admitted())
        .as("B is below its share (2 of 4): let in over the limit")
        .isTrue();
    assertThat(admission.decide(B, UUID.randomUUID()).admitted()).isTrue();
    assertThat(admission.decide(B, UUID.randomUUID()).admitted())
        .as("B has its share and the limit is reached")
        .isFalse();
    assertThat(admission.dueNow(A)).isEqualTo(4);
    assertThat(admission.dueNow(B)).isEqualTo(2);
    assertThat(admission.dueNow()).isEqualTo(6);

    admission.ended(runsOfA.get(0));
    admission.ended(runsOfA.get(1));
    assertThat(admission.decide(A, UUID.randomUUID()).admitted())
        .as("A over its share while the limit is reached")
        .isFalse();
    admission.ended(runsOfA.get(2));
    assertThat(admission.decide(A, UUID.randomUUID()).admitted())
        .as("below the limit again (1 of A, 2 of B)")
        .isTrue();
    assertThat(meters.get("crm.trigger.admission.refused").tag("reason", "due").counter().count())
        .isEqualTo(3);
  }

  @Test
  void aRefusedCallIsAnsweredWithoutWaiting() {
    for (int i = 0; i < 4; i++) {
      admission.decide(A, UUID.randomUUID());
    }
    Timer waits = meters.get("crm.trigger.admission.wait").timer();
    long letInBefore = waits.count();

    RunAdmission.Decision refused = admission.decide(A, UUID.randomUUID());

    // on the caller's thread: a parked call would not have come back with the limit still reached
    assertThat(refused.admitted()).isFalse();
    assertThat(refused.delay()).isZero();
    assertThat(admission.callsWaiting()).isZero();
    assertThat(waits.count()).as("no call let in").isEqualTo(letInBefore);
    assertThat(admission.dueNow()).as("nothing counted for it").isEqualTo(4);
  }

  @Test
  void aRunWaitingOnAShortDelayIsDueAgainWhenItsTimeComes() {
    UUID sleeper = UUID.randomUUID();
    admission.decide(A, sleeper);
    admission.decide(A, UUID.randomUUID());
    assertThat(admission.dueNow()).isEqualTo(2);

    admission.waitsUntil(sleeper, clock.instant().plusSeconds(1));
    assertThat(admission.dueNow()).isEqualTo(1);
    clock.advance(Duration.ofMillis(999));
    assertThat(admission.dueNow()).isEqualTo(1);
    clock.advance(Duration.ofMillis(1));
    assertThat(admission.dueNow()).isEqualTo(2);
    assertThat(admission.dueNow(A)).as("due again for its tenant").isEqualTo(2);

    admission.ended(sleeper);
    assertThat(admission.dueNow()).isEqualTo(1);
  }

  @Test
  void aRunWokenFromAShortDelayThatCallsOutBeforeAnyCountIsNotDueDuringItsCall() {
    UUID caller = UUID.randomUUID();
    admission.decide(A, caller);
    admission.waitsUntil(caller, clock.instant().plusSeconds(1));
    clock.advance(Duration.ofSeconds(1));

    // woken, and at once in an http_request: nothing asked for the count in between
    admission.callStarted(caller + ":call");
    assertThat(admission.dueNow()).as("waiting on its peer, not due").isZero();

    admission.callEnded(caller + ":call");
    assertThat(admission.dueNow()).as("due again once its peer answered").isEqualTo(1);
    admission.ended(caller);
    assertThat(admission.dueNow()).isZero();
  }

  @Test
  void aRunWaitingOnALongDelayOrOnAPeerIsNotDue() {
    UUID longSleeper = UUID.randomUUID();
    UUID caller = UUID.randomUUID();
    admission.decide(A, longSleeper);
    admission.decide(B, caller);

    admission.waitsUntil(longSleeper, clock.instant().plus(Duration.ofDays(3)));
    admission.callStarted(caller + ":call");
    assertThat(admission.dueNow()).isZero();
    assertThat(admission.dueNow(B)).isZero();

    admission.callEnded(caller + ":call");
    assertThat(admission.dueNow()).isEqualTo(1);
    assertThat(admission.dueNow(B)).as("due again for its tenant").isEqualTo(1);
    clock.advance(Duration.ofDays(3));
    assertThat(admission.dueNow()).as("a wake-up this far off is not tracked").isEqualTo(1);
  }

  @Test
  void aRunDueTooLongIsForgotten() {
    RunAdmission one = new RunAdmission(1, Duration.ofMillis(100), false, clock, meters);
    assertThat(one.decide(A, UUID.randomUUID()).admitted()).isTrue();
    assertThat(one.decide(A, UUID.randomUUID()).admitted()).isFalse();
    assertThat(one.dueNow()).isEqualTo(1);

    clock.advance(RunAdmission.FORGET_DUE_AFTER.plusSeconds(1));
    assertThat(one.dueNow()).isZero();
    assertThat(one.dueNow(A)).isZero();
    assertThat(one.decide(A, UUID.randomUUID()).admitted()).isTrue();
  }

  @Test
  void underMaxDueTimeRunsDueTooLongLowerTheLimitToItsFloorAndRunsOnTimeRaiseItBack() {
    MeterRegistry timedMeters = new SimpleMeterRegistry();
    RunAdmission timed =
        new RunAdmission(
            32, Duration.ofMillis(100), false, Duration.ofSeconds(1), clock, timedMeters);
    assertThat(timed.limitNow()).as("before any run: max-due-runs").isEqualTo(32);
    List<UUID> slow = letInUntilRefused(timed, A);
    assertThat(slow).hasSize(32);
    clock.advance(Duration.ofSeconds(2));
    slow.forEach(timed::ended);
    assertThat(timed.limitNow()).as("32 runs due 2 s each: down to an eighth").isEqualTo(4);
    assertThat(timedMeters.get("crm.trigger.admission.limit").gauge().value()).isEqualTo(4);

    List<UUID> due = letInUntilRefused(timed, A);
    assertThat(due).as("4 due runs fill the limit").hasSize(4);
    RunAdmission.Decision refused = timed.decide(A, UUID.randomUUID());
    assertThat(refused.reason()).isEqualTo("due");
    assertThat(refused.retryAfterSeconds()).isEqualTo(1);
    UUID ofB = UUID.randomUUID();
    assertThat(timed.decide(B, ofB).admitted())
        .as("another tenant still has its share of the lower limit")
        .isTrue();

    int before = timed.limitNow();
    clock.advance(Duration.ofMillis(200));
    due.forEach(timed::ended);
    timed.ended(ofB);
    assertThat(timed.limitNow()).as("runs due 200 ms while they filled it").isGreaterThan(before);
    for (int round = 0; round < 20; round++) {
      due = letInUntilRefused(timed, A);
      clock.advance(Duration.ofMillis(200));
      due.forEach(timed::ended);
    }
    assertThat(timed.limitNow()).as("back to max-due-runs, and no further").isEqualTo(32);

    RunAdmission byCount = new RunAdmission(32, Duration.ofMillis(100), false, clock, meters);
    List<UUID> countOnly = letInUntilRefused(byCount, A);
    clock.advance(Duration.ofSeconds(2));
    countOnly.forEach(byCount::ended);
    assertThat(byCount.limitNow()).as("without max-due-time: the count alone").isEqualTo(32);
    assertThat(letInUntilRefused(byCount, A)).hasSize(32);
  }

  @Test
  void underMaxDueTimeARunWokenFromAShortDelayIsTimedFromItsWakeUpThoughNoCallCameBetween() {
    RunAdmission timed =
        new RunAdmission(32, Duration.ofMillis(100), false, Duration.ofSeconds(1), clock, meters);
    List<UUID> sleepers = letInUntilRefused(timed, A);
    sleepers.forEach(run -> timed.waitsUntil(run, clock.instant().plusSeconds(1)));
    assertThat(timed.limitNow()).as("asleep at once: due 0 s each").isEqualTo(32);

    clock.advance(Duration.ofSeconds(3));
    sleepers.forEach(timed::ended);
    assertThat(timed.limitNow()).as("each due 2 s after its wake-up").isEqualTo(4);
    assertThat(timed.dueNow()).isZero();
  }

  @Test
  void aLimitOfZeroLetsEveryCallIn() {
    RunAdmission off =
        new RunAdmission(0, Duration.ofMillis(100), false, clock, new SimpleMeterRegistry());
    for (int i = 0; i < 100; i++) {
      assertThat(off.decide(A, UUID.randomUUID()).admitted()).isTrue();
    }
  }

  @Test
  void pacedCallsAreLetInOnTheirSlotWithinMaxWaitAndRefusedBeyond() {
    MeterRegistry pacedMeters = new SimpleMeterRegistry();
    RunAdmission paced = paced(pacedMeters);
    clock.advance(Duration.ofSeconds(1));
    long burstAtTheFloor =
        (long) Math.ceil(AdmissionPace.FLOOR_PER_SECOND * AdmissionPace.BURST.toMillis() / 1e3);
    long slotsWithinMaxWait = (long) (AdmissionPace.FLOOR_PER_SECOND * 0.1); // 100 ms at 50/s

    List<RunAdmission.Decision> decisions = decideUntilRefused(paced, A);

    assertThat(decisions.stream().filter(d -> d.admitted() && d.delay().isZero()).count())
        .isEqualTo(burstAtTheFloor);
    assertThat(decisions.stream().filter(d -> d.admitted() && !d.delay().isZero()))
        .hasSize((int) slotsWithinMaxWait)
        .allSatisfy(d -> assertThat(d.delay()).isLessThanOrEqualTo(Duration.ofMillis(100)));
    RunAdmission.Decision refused = decisions.get(decisions.size() - 1);
    assertThat(refused.reason()).isEqualTo("pace");
    assertThat(refused.retryAfterSeconds()).isEqualTo(1);
    assertThat(paced.callsWaiting())
        .as("the calls let in on a later slot wait for it (their callers sleep, not the admission)")
        .isEqualTo(slotsWithinMaxWait);
    Timer waits = pacedMeters.get("crm.trigger.admission.wait").timer();
    assertThat(waits.count())
        .as("each call let in has its wait recorded as it is decided")
        .isEqualTo(burstAtTheFloor + slotsWithinMaxWait);
    assertThat(waits.max(TimeUnit.MILLISECONDS)).isGreaterThan(0).isLessThanOrEqualTo(100);
    assertThat(paced.paceNow()).isEqualTo(AdmissionPace.FLOOR_PER_SECOND);

    clock.advance(Duration.ofMillis(200));
    assertThat(paced.callsWaiting()).as("their slots came").isZero();
    assertThat(paced.decide(A, UUID.randomUUID()).admitted()).as("its slots came").isTrue();
  }

  @Test
  void aTenantFindsItsOwnSlotFreeWhileAnotherFloods() {
    RunAdmission paced = paced();
    clock.advance(Duration.ofSeconds(1));
    decideUntilRefused(paced, A);

    RunAdmission.Decision ofB = paced.decide(B, UUID.randomUUID());

    assertThat(ofB.admitted()).isTrue();
    assertThat(ofB.delay()).as("not behind A's booked slots").isZero();
    assertThat(paced.decide(A, UUID.randomUUID()).admitted()).isFalse();
  }

  @Test
  void runsEndingWhileCallsAreHeldSpeedThePaceUp() {
    RunAdmission paced =
        new RunAdmission(1000, Duration.ofMillis(100), true, clock, new SimpleMeterRegistry());
    List<UUID> runs = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      if (i > 0) {
        clock.advance(Duration.ofMillis(20)); // the floor's spacing: each is let in on its slot
      }
      UUID run = UUID.randomUUID();
      assertThat(paced.decide(A, run).admitted()).isTrue();
      runs.add(run);
    }
    runs.forEach(paced::ended); // 400 ends within 100 ms: far above the floor
    decideUntilRefused(paced, A);
    assertThat(paced.paceNow()).isEqualTo(AdmissionPace.FLOOR_PER_SECOND);

    clock.advance(Duration.ofMillis(100));
    assertThat(paced.decide(A, UUID.randomUUID()).admitted()).isTrue();
    assertThat(paced.paceNow()).isGreaterThan(5 * AdmissionPace.FLOOR_PER_SECOND);
  }

  @Test
  void backgroundWorkTakesOnlyHalfTheLimitLessTheDueRunsAndCountsInItsTenantsShare() {
    UUID runOfB = UUID.randomUUID();
    assertThat(admission.decide(B, runOfB).admitted()).isTrue();
    UUID firstMove = UUID.randomUUID();
    assertThat(admission.tryStart(A, firstMove)).as("1 due of the 2 left to it").isTrue();
    assertThat(admission.tryStart(A, UUID.randomUUID()))
        .as("B's due run and A's work take half the limit")
        .isFalse();
    admission.ended(runOfB);
    clock.advance(BackgroundWindow.QUIET.plusMillis(1)); // no new runs since: the window is open
    UUID secondMove = UUID.randomUUID();
    assertThat(admission.tryStart(A, secondMove)).isTrue();
    assertThat(admission.backgroundNow()).isEqualTo(2);

    for (int i = 0; i < 4; i++) {
      assertThat(admission.decide(B, UUID.randomUUID()).admitted())
          .as("new runs are let in beside background work, up to the limit")
          .isTrue();
    }
    assertThat(admission.decide(A, UUID.randomUUID()).admitted())
        .as("A's background work fills its share (2 of 4) while the limit is reached")
        .isFalse();
    admission.finished(firstMove);
    admission.finished(secondMove);
    assertThat(admission.backgroundNow()).isZero();
    assertThat(admission.decide(A, UUID.randomUUID()).admitted())
        .as("its work over, A is below its share again")
        .isTrue();
  }

  @Test
  void backgroundWorkWaitsASecondAfterATriggerCallWasHeldBack() {
    List<UUID> runs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      UUID run = UUID.randomUUID();
      admission.decide(A, run);
      runs.add(run);
    }
    assertThat(admission.decide(A, UUID.randomUUID()).admitted()).isFalse();
    runs.forEach(admission::ended);

    assertThat(admission.tryStart(B, UUID.randomUUID()))
        .as("no run due, but a call was refused just now")
        .isFalse();
    clock.advance(RunAdmission.BACKGROUND_YIELDS_FOR.plusMillis(1));
    assertThat(admission.tryStart(B, UUID.randomUUID())).isTrue();
  }

  @Test
  void backgroundWorkGivesWayWhileNewRunsStayDueLongerThanAloneAndRunsAtFullWidthWithoutThem() {
    RunAdmission roomy =
        new RunAdmission(32, Duration.ofMillis(100), false, clock, new SimpleMeterRegistry());
    for (int i = 0; i < 4; i++) {
      newRunDueFor(roomy, Duration.ofMillis(100));
    }
    List<UUID> work = new ArrayList<>();
    while (work.size() < 16 && startWork(roomy, work)) {
      clock.advance(Duration.ofMillis(1));
    }
    assertThat(work)
        .as("new runs come and go: the window opens by one a step from the work under way")
        .hasSize(2);

    for (int i = 0; i < 2; i++) {
      newRunDueFor(roomy, Duration.ofMillis(400));
    }
    assertThat(roomy.backgroundWindowNow())
        .as("new runs due 4 times longer than alone: the window halves to 0")
        .isZero();
    work.forEach(roomy::finished);
    work.clear();
    assertThat(startWork(roomy, work)).as("nothing under way, but new runs come first").isFalse();
    for (int i = 0; i < 8; i++) {
      newRunDueFor(roomy, Duration.ofMillis(400));
    }
    assertThat(startWork(roomy, work))
        .as("runs slow after the work do not pass for the process's pace alone")
        .isFalse();

    int spells = 0;
    while (!startWork(roomy, work)) {
      newRunDueFor(roomy, Duration.ofMillis(100));
      spells++;
      assertThat(spells).as("new runs back to their time alone reopen the window").isLessThan(20);
    }
    assertThat(spells).as("not before their smoothed time is back near alone").isGreaterThan(2);
    work.forEach(roomy::finished);
    work.clear();

    clock.advance(BackgroundWindow.QUIET.plusMillis(1));
    while (startWork(roomy, work)) {
      assertThat(work).hasSizeLessThanOrEqualTo(16);
    }
    assertThat(work).as("no new runs: half the limit of 32").hasSize(16);
  }

  /** A new run of B let in, due for this long, then ended, and a step's time after it. */
  private void newRunDueFor(RunAdmission admission, Duration spell) {
    UUID run = UUID.randomUUID();
    assertThat(admission.decide(B, run).admitted()).isTrue();
    clock.advance(spell);
    admission.ended(run);
    clock.advance(BackgroundWindow.STEP);
  }

  /** Starts background work of A; whether it was let in (and added to the work under way). */
  private static boolean startWork(RunAdmission admission, List<UUID> work) {
    UUID run = UUID.randomUUID();
    boolean started = admission.tryStart(A, run);
    if (started) {
      work.add(run);
    }
    return started;
  }

  /** The runs of one tenant let in while the clock stands still, up to the first refusal. */
  private static List<UUID> letInUntilRefused(RunAdmission admission, UUID tenant) {
    List<UUID> runs = new ArrayList<>();
    UUID run = UUID.randomUUID();
    while (admission.decide(tenant, run).admitted() && runs.size() < 10_000) {
      runs.add(run);
      run = UUID.randomUUID();
    }
    return runs;
  }

  /** A paced admission with room for many due runs, so that only its pace holds calls back. */
  private RunAdmission paced() {
    return paced(new SimpleMeterRegistry());
  }

  private RunAdmission paced(MeterRegistry registry) {
    return new RunAdmission(1000, Duration.ofMillis(100), true, clock, registry);
  }

  /**
   * The decisions for calls of one tenant while the clock stands still, up to the first refusal.
   */
  private static List<RunAdmission.Decision> decideUntilRefused(
      RunAdmission admission, UUID tenant) {
    List<RunAdmission.Decision> decisions = new ArrayList<>();
    RunAdmission.Decision decision;
    do {
      decision = admission.decide(tenant, UUID.randomUUID());
      decisions.add(decision);
    } while (decision.admitted() && decisions.size() < 10_000);
    return decisions;
  }

  private static final class SettableClock extends Clock {
    private volatile Instant now = Instant.parse("2026-11-23T10:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
