package com.crmflow.api.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What counts as a due run, and how calls wait for room (a unit: a settable clock, threads). */
class TriggerAdmissionTest {

  private final SettableClock clock = new SettableClock();
  private final TriggerAdmission admission =
      new TriggerAdmission(2, Duration.ofSeconds(30), false, clock, new SimpleMeterRegistry());

  @Test
  void callsWaitForRoomInTheirOrderOfArrival() {
    UUID first = UUID.randomUUID();
    assertThat(admission.admit(first)).isTrue();
    assertThat(admission.admit(UUID.randomUUID())).isTrue();

    List<String> letIn = new CopyOnWriteArrayList<>();
    CompletableFuture<Boolean> a = admitAsync("a", letIn);
    await().until(() -> admission.callsWaiting() == 1);
    CompletableFuture<Boolean> b = admitAsync("b", letIn);
    await().until(() -> admission.callsWaiting() == 2);
    assertThat(letIn).isEmpty();

    admission.ended(first);
    await().until(() -> letIn.size() == 1);
    assertThat(letIn).containsExactly("a");
    assertThat(a.join()).isTrue();
    assertThat(b).isNotDone();
  }

  @Test
  void aRunWaitingOnAShortDelayIsDueAgainWhenItsTimeComes() {
    UUID sleeper = UUID.randomUUID();
    admission.admit(sleeper);
    admission.admit(UUID.randomUUID());
    assertThat(admission.dueNow()).isEqualTo(2);

    admission.waitsUntil(sleeper, clock.instant().plusSeconds(1));
    assertThat(admission.dueNow()).isEqualTo(1);
    clock.advance(Duration.ofMillis(999));
    assertThat(admission.dueNow()).isEqualTo(1);
    clock.advance(Duration.ofMillis(1));
    assertThat(admission.dueNow()).isEqualTo(2);

    admission.ended(sleeper);
    assertThat(admission.dueNow()).isEqualTo(1);
  }

  @Test
  void aRunWaitingOnALongDelayOrOnAPeerIsNotDue() {
    UUID longSleeper = UUID.randomUUID();
    UUID caller = UUID.randomUUID();
    admission.admit(longSleeper);
    admission.admit(caller);

    admission.waitsUntil(longSleeper, clock.instant().plus(Duration.ofDays(3)));
    admission.callStarted(caller + ":call");
    assertThat(admission.dueNow()).isZero();

    admission.callEnded(caller + ":call");
    assertThat(admission.dueNow()).isEqualTo(1);
    clock.advance(Duration.ofDays(3));
    assertThat(admission.dueNow()).as("a wake-up this far off is not tracked").isEqualTo(1);
  }

  @Test
  void aRunDueTooLongIsForgottenAndACallWaitsNoLongerThanMaxWait() {
    MeterRegistry meters = new SimpleMeterRegistry();
    TriggerAdmission brief = new TriggerAdmission(1, Duration.ofMillis(200), false, clock, meters);
    assertThat(brief.admit(UUID.randomUUID())).isTrue();

    long before = System.nanoTime();
    assertThat(brief.admit(UUID.randomUUID())).as("let in without room").isFalse();
    assertThat(System.nanoTime() - before)
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
    assertThat(brief.dueNow()).isEqualTo(2);
    assertThat(meters.get("crm.trigger.admission.due").gauge().value()).isEqualTo(2);
    assertThat(meters.get("crm.trigger.admission.wait").tag("room", "true").timer().count())
        .isEqualTo(1);
    var maxWaited = meters.get("crm.trigger.admission.wait").tag("room", "false").timer();
    assertThat(maxWaited.count()).isEqualTo(1);
    assertThat(maxWaited.totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(200);

    clock.advance(TriggerAdmission.FORGET_DUE_AFTER.plusSeconds(1));
    assertThat(brief.dueNow()).isZero();
    assertThat(brief.admit(UUID.randomUUID())).isTrue();
  }

  @Test
  void aLimitOfZeroLetsEveryCallIn() {
    TriggerAdmission off =
        new TriggerAdmission(0, Duration.ofSeconds(30), false, clock, new SimpleMeterRegistry());
    for (int i = 0; i < 100; i++) {
      assertThat(off.admit(UUID.randomUUID())).isTrue();
    }
  }

  @Test
  void pacedCallsWaitForTheirSlot() {
    TriggerAdmission paced = paced();
    clock.advance(Duration.ofSeconds(1));
    long burstAtTheFloor =
        (long) Math.ceil(AdmissionPace.FLOOR_PER_SECOND * AdmissionPace.BURST.toMillis() / 1e3);

    assertThat(callsLetInWithoutTimePassing(paced)).isEqualTo(burstAtTheFloor);
    assertThat(paced.paceNow()).isEqualTo(AdmissionPace.FLOOR_PER_SECOND);

    clock.advance(Duration.ofNanos((long) (1e9 / AdmissionPace.FLOOR_PER_SECOND)));
    assertThat(paced.admit(UUID.randomUUID())).as("the next slot has come").isTrue();
  }

  @Test
  void runsEndingWhileCallsWaitSpeedThePaceUp() throws Exception {
    TriggerAdmission paced =
        new TriggerAdmission(1000, Duration.ofSeconds(30), true, clock, new SimpleMeterRegistry());
    List<UUID> runs = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      if (i > 0) {
        clock.advance(Duration.ofMillis(20)); // the floor's spacing: each is let in on its slot
      }
      UUID run = UUID.randomUUID();
      assertThat(paced.admit(run)).isTrue();
      runs.add(run);
    }
    runs.forEach(paced::ended); // 400 ends within 100 ms: far above the floor
    CompletableFuture<Boolean> waiting =
        CompletableFuture.supplyAsync(() -> paced.admit(UUID.randomUUID()));
    await().until(() -> paced.callsWaiting() == 1);
    assertThat(paced.paceNow()).isEqualTo(AdmissionPace.FLOOR_PER_SECOND);

    clock.advance(Duration.ofMillis(100));
    assertThat(waiting.get(5, TimeUnit.SECONDS)).isTrue();
    assertThat(paced.paceNow()).isGreaterThan(5 * AdmissionPace.FLOOR_PER_SECOND);
  }

  /** A paced admission with room for many due runs, so that only its pace holds calls back. */
  private TriggerAdmission paced() {
    return new TriggerAdmission(
        1000, Duration.ofMillis(200), true, clock, new SimpleMeterRegistry());
  }

  /** Calls let in with room while the clock stands still (the first without room waits 200 ms). */
  private static long callsLetInWithoutTimePassing(TriggerAdmission admission) {
    long letIn = 0;
    while (admission.admit(UUID.randomUUID())) {
      letIn++;
    }
    return letIn;
  }

  private CompletableFuture<Boolean> admitAsync(String name, List<String> letIn) {
    return CompletableFuture.supplyAsync(
        () -> {
          boolean room = admission.admit(UUID.randomUUID());
          letIn.add(name);
          return room;
        });
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
