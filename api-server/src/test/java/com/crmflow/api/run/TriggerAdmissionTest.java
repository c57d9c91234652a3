package com.crmflow.api.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
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
      new TriggerAdmission(2, Duration.ofSeconds(30), clock, new SimpleMeterRegistry());

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
    TriggerAdmission brief = new TriggerAdmission(1, Duration.ofMillis(200), clock, meters);
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
        new TriggerAdmission(0, Duration.ofSeconds(30), clock, new SimpleMeterRegistry());
    for (int i = 0; i < 100; i++) {
      assertThat(off.admit(UUID.randomUUID())).isTrue();
    }
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
