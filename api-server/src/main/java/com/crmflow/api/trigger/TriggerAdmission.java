package com.crmflow.api.trigger;

import com.crmflow.api.config.CrmProperties;
import com.crmflow.api.run.RunProgress;
import com.crmflow.worker.activity.OutboundCallObserver;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Backpressure at the public trigger. Accepting a call is cheap; running it is not, so under
 * overload the trigger accepted far faster than runs finished, and every accepted run (above all
 * one waking from a short delay) waited its turn behind all the others: with a flood of triggers,
 * "wait 1 s" took up to 28 s. Instead, a call now waits, in line, before it is accepted while this
 * process has {@code max-due-runs} runs <em>due</em>: accepted by the trigger, not ended, and
 * neither waiting on a delay whose time has not come nor waiting on an http_request's peer. The
 * client sees a slower 200; the runs already accepted stay on time.
 *
 * <p>What is counted is meant to be work waiting for this process, so a run drops out when it waits
 * on a delay longer than {@link #TRACKED_WAKEUPS} (its wake-up is far off, and spread), and when it
 * has been due for {@link #FORGET_DUE_AFTER} without ending (it is waiting on something else, or
 * another api-server records its end). A call never waits longer than {@code max-wait}: it is then
 * accepted anyway, since nothing is refused for load. Counts are per process.
 *
 * <p>Below the limit, calls are also let in at a {@link AdmissionPace pace} (unless {@code paced}
 * is off): about the rate at which runs end, evenly spaced, which keeps runs that wake from short
 * delays from arriving in waves.
 *
 * <p>Operators see it in the metrics: {@code crm.trigger.admission.wait} (how long calls waited,
 * tagged {@code room=true} or {@code false} when max-wait let them in), {@code
 * crm.trigger.admission.due}, {@code crm.trigger.admission.waiting} (calls in line now) and {@code
 * crm.trigger.admission.pace} (calls let in per second at most now).
 */
@Component
class TriggerAdmission implements OutboundCallObserver, RunProgress {

  static final Duration TRACKED_WAKEUPS = Duration.ofSeconds(60);
  static final Duration FORGET_DUE_AFTER = Duration.ofSeconds(60);

  /** An http_request times out after 65 s at most; a call not heard back from by then is over. */
  static final Duration FORGET_CALL_AFTER = Duration.ofMinutes(2);

  /** A delay coming to its end makes a run due without a signal: waiting calls look again. */
  private static final long LOOK_AGAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final int limit;
  private final long maxWaitNanos;
  private final Clock clock;
  private final Timer roomFoundWaits;
  private final Timer maxWaitWaits;

  private final ReentrantLock lock = new ReentrantLock();

  /** Calls waiting for room, first come first (guarded by lock, as every field below). */
  private final Deque<Condition> queue = new ArrayDeque<>();

  /** Due runs, and since when. */
  private final Map<UUID, Instant> due = new HashMap<>();

  /** Runs waiting on an http_request's peer, and since when. */
  private final Map<UUID, Instant> inCall = new HashMap<>();

  /** Runs waiting on a short delay, and until when. */
  private final Map<UUID, Instant> waiting = new HashMap<>();

  private record Wakeup(Instant at, UUID runId) {}

  /** The waiting runs by wake-up time; an entry is stale once its run left {@link #waiting}. */
  private final PriorityQueue<Wakeup> wakeups =
      new PriorityQueue<>((a, b) -> a.at().compareTo(b.at()));

  /** The pace calls are let in at; null when not paced. */
  private final AdmissionPace pace;

  @Autowired
  TriggerAdmission(CrmProperties properties, MeterRegistry meters) {
    this(
        properties.trigger().admission().maxDueRuns(),
        properties.trigger().admission().maxWait(),
        properties.trigger().admission().paced(),
        Clock.systemUTC(),
        meters);
  }

  TriggerAdmission(int limit, Duration maxWait, boolean paced, Clock clock, MeterRegistry meters) {
    this.limit = limit;
    this.pace = paced && limit > 0 ? new AdmissionPace(limit, clock.instant()) : null;
    this.maxWaitNanos = maxWait.toNanos();
    this.clock = clock;
    this.roomFoundWaits = waits(meters, true);
    this.maxWaitWaits = waits(meters, false);
    Gauge.builder("crm.trigger.admission.due", this, TriggerAdmission::dueNow)
        .description("Runs accepted by the trigger and due now (the admission's count)")
        .register(meters);
    Gauge.builder("crm.trigger.admission.pace", this, TriggerAdmission::paceNow)
        .description("Trigger calls let in per second at most now (the pace; 0 when not paced)")
        .register(meters);
    Gauge.builder("crm.trigger.admission.waiting", this, TriggerAdmission::callsWaiting)
        .description("Trigger calls waiting for room now")
        .register(meters);
  }

  private static Timer waits(MeterRegistry meters, boolean roomFound) {
    return Timer.builder("crm.trigger.admission.wait")
        .description("How long trigger calls waited for room before their run was accepted")
        .tag("room", String.valueOf(roomFound))
        .publishPercentileHistogram()
        .register(meters);
  }

  /**
   * Waits (at most max-wait, in arrival order) until fewer than the limit of runs are due, then
   * counts the run as due. Returns at once when the limit is 0 (off).
   *
   * @return whether the call had room (false: it waited max-wait, or was interrupted, and is let in
   *     anyway)
   */
  boolean admit(UUID runId) {
    if (limit <= 0) {
      return true;
    }
    long arrived = System.nanoTime();
    boolean roomFound;
    lock.lock();
    try {
      boolean letInAtOnce = queue.isEmpty() && hasRoom();
      roomFound = letInAtOnce || awaitTurn();
      if (roomFound && pace != null) {
        pace.take(clock.instant(), due.size(), !letInAtOnce);
      }
      due.put(runId, clock.instant());
    } finally {
      lock.unlock();
    }
    (roomFound ? roomFoundWaits : maxWaitWaits)
        .record(System.nanoTime() - arrived, TimeUnit.NANOSECONDS);
    return roomFound;
  }

  /** The run waits on a delay until then: not due before that, and forgotten if that is far. */
  @Override
  public void waitsUntil(UUID runId, Instant until) {
    change(
        () -> {
          boolean counted = due.remove(runId) != null | waiting.remove(runId) != null;
          if (counted && Duration.between(clock.instant(), until).compareTo(TRACKED_WAKEUPS) <= 0) {
            waiting.put(runId, until);
            wakeups.add(new Wakeup(until, runId));
          } else if (counted && pace != null) {
            pace.runEnded();
          }
          return counted;
        });
  }

  /** The run ended (or was not accepted after all): no longer counted. */
  @Override
  public void ended(UUID runId) {
    change(
        () -> {
          boolean counted =
              due.remove(runId) != null
                  | waiting.remove(runId) != null
                  | inCall.remove(runId) != null;
          if (counted && pace != null) {
            pace.runEnded();
          }
          return counted;
        });
  }

  @Override
  public void callStarted(String idempotencyKey) {
    UUID runId = runOf(idempotencyKey);
    if (runId != null) {
      change(
          () -> {
            if (due.remove(runId) == null) {
              return false;
            }
            inCall.put(runId, clock.instant());
            return true;
          });
    }
  }

  @Override
  public void callEnded(String idempotencyKey) {
    UUID runId = runOf(idempotencyKey);
    if (runId != null) {
      change(
          () -> {
            if (inCall.remove(runId) != null) {
              due.put(runId, clock.instant());
            }
            return false; // one more due run makes no room
          });
    }
  }

  /** Due runs now. */
  int dueNow() {
    lock.lock();
    try {
      return dueCount();
    } finally {
      lock.unlock();
    }
  }

  /** Calls let in per second at most now. */
  double paceNow() {
    lock.lock();
    try {
      return pace == null ? 0 : pace.perSecond();
    } finally {
      lock.unlock();
    }
  }

  /** Calls waiting for room now. */
  int callsWaiting() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /** The run id of an http_request's Idempotency-Key ({@code <run id>:<node id>}). */
  private static UUID runOf(String idempotencyKey) {
    int colon = idempotencyKey == null ? -1 : idempotencyKey.indexOf(':');
    try {
      return colon < 0 ? null : UUID.fromString(idempotencyKey.substring(0, colon));
    } catch (IllegalArgumentException notARun) {
      return null;
    }
  }

  /**
   * Waits in line: calls are let in in their order of arrival (a call arriving while another waits
   * does not take the room made for that one), which keeps the slowest answers close to the mean.
   *
   * @return false when max-wait passed (or the thread was interrupted) first
   */
  private boolean awaitTurn() {
    Condition turn = lock.newCondition();
    queue.addLast(turn);
    long left = maxWaitNanos;
    try {
      while (queue.peekFirst() != turn || !hasRoom()) {
        if (left <= 0) {
          return false;
        }
        long slice = Math.min(left, LOOK_AGAIN_NANOS);
        if (queue.peekFirst() == turn && pace != null && dueCount() < limit) {
          // only the pace holds the first call back: wake at its slot (slots are ms apart)
          slice = Math.max(1, Math.min(slice, pace.untilNextSlot(clock.instant()).toNanos()));
        }
        left -= slice - turn.awaitNanos(slice);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      queue.remove(turn);
      signalFirst();
    }
  }

  /** Applies the change under the lock and, if it made room, wakes the first waiting call. */
  private void change(BooleanSupplier madeRoom) {
    if (limit <= 0) {
      return;
    }
    lock.lock();
    try {
      if (madeRoom.getAsBoolean()) {
        signalFirst();
      }
    } finally {
      lock.unlock();
    }
  }

  private void signalFirst() {
    Condition first = queue.peekFirst();
    if (first != null) {
      first.signal();
    }
  }

  /** Fewer runs due than the limit and, when paced, the next slot has come. */
  private boolean hasRoom() {
    return dueCount() < limit && (pace == null || pace.slotCome(clock.instant()));
  }

  /** Moves runs whose delay is over back to due, and forgets what was counted too long. */
  private int dueCount() {
    Instant now = clock.instant();
    while (!wakeups.isEmpty() && !wakeups.peek().at().isAfter(now)) {
      Wakeup wakeup = wakeups.poll();
      if (wakeup.at().equals(waiting.get(wakeup.runId()))) {
        waiting.remove(wakeup.runId());
        due.put(wakeup.runId(), wakeup.at());
      }
    }
    if (due.size() >= limit) {
      Instant dueBefore = now.minus(FORGET_DUE_AFTER);
      due.values().removeIf(since -> since.isBefore(dueBefore));
      Instant calledBefore = now.minus(FORGET_CALL_AFTER);
      inCall.values().removeIf(since -> since.isBefore(calledBefore));
    }
    return due.size();
  }
}
