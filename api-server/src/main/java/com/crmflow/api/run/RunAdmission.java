package com.crmflow.api.run;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.shared.outbound.OutboundCallObserver;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Backpressure at the public trigger, fair between tenants: {@link RunBeginnings} asks it for each
 * run whose beginning is refused when full (the trigger's calls). Accepting a call is cheap;
 * running it is not: a trigger that accepted every call under overload would accept far faster than
 * runs finish, and every accepted run (above all one waking from a short delay) would wait its turn
 * behind all the others ("wait 1 s" taking tens of seconds under a flood). So a call is refused
 * (503 with {@code Retry-After}) while this process has {@code max-due-runs} runs <em>due</em>:
 * accepted by the trigger, not ended, and neither waiting on a delay whose time has not come nor
 * waiting on an http_request's peer. The runs already accepted stay on time.
 *
 * <p><b>Fair between tenants.</b> The limit is shared: when it is reached, a tenant with fewer due
 * runs than its share ({@code max-due-runs} divided by the number of tenants with runs due, itself
 * included) is still let in, and the others are refused until their runs end. One tenant's flood
 * therefore takes the whole capacity only while no other tenant wants any, and gives it back run by
 * run (max-min fairness: what round-robin over per-tenant queues converges to, without a queue).
 * The due count may so go over the limit by at most one limit's worth, or by one run per tenant
 * with runs due where there are more such tenants than the limit (a share is at least one run).
 *
 * <p><b>Never parked.</b> A call is decided at once ({@link #decide}): let in now, let in on its
 * slot of the pace at most {@code max-wait} from now (a short sleep, never seconds), or refused.
 * The admission never sleeps: it books the slot, and the caller sleeps until it once it holds
 * nothing (no lock, no database connection).
 *
 * <p>What is counted is meant to be work waiting for this process, so a run drops out when it waits
 * on a delay longer than {@link #TRACKED_WAKEUPS} (its wake-up is far off, and spread), and when it
 * has been due for {@link #FORGET_DUE_AFTER} without ending (it is waiting on something else, or
 * another api-server records its end). Counts are per process.
 *
 * <p><b>How long runs stay due</b> ({@code max-due-time}, off at 0). A count of due runs is a time
 * only at a given rate of ends: 32 due runs are under a second of work where runs end at 48 a
 * second, and several seconds where they end at 10 (a cluster whose runs each cost the Temporal
 * server and its database more). So with {@code max-due-time} set, the number of runs that may be
 * due follows how long each run let in stayed due (from its admission, its wake-up or its call's
 * answer until it waits again, calls out or ends): every run due longer than that takes a tenth off
 * the limit, every run within it adds one while the due runs fill half of it (additive increase,
 * multiplicative decrease: Netflix concurrency-limits' {@link AIMDLimit}), between {@code
 * max-due-runs} and an eighth of it. Runs let in then stay due about {@code max-due-time} under
 * overload, whatever the shape's pace, and the calls beyond are refused with 503 as above. The
 * floor keeps a flow whose own steps take longer than {@code max-due-time} from being refused for
 * what it is: such a flow holds the limit at the floor, for every tenant of the process, so set it
 * above the time due of the slowest flow without load. The pace below still reads {@code
 * max-due-runs}.
 *
 * <p>Below the limit, calls are also let in at a {@link AdmissionPace pace} (unless {@code paced}
 * is off): about the rate at which runs end, evenly spaced, which keeps runs that wake from short
 * delays from arriving in waves. Each tenant has its own slots, spaced by its share of the pace
 * (the pace divided by the number of tenants with runs due), so a tenant sending few calls finds
 * its slot free however many another sends. A call whose slot is more than {@code max-wait} away is
 * refused.
 *
 * <p><b>Background work comes after new runs.</b> Work no caller waits for (a move's update of a
 * waiting run, through {@link #tryStart}) is let in only with what new runs leave: not while a
 * trigger call was held back (refused, or let in on a later slot) in the last {@link
 * #BACKGROUND_YIELDS_FOR}, only while runs due and background work under way together stay below
 * half the limit in force (with the count alone, the mark from which the pace reads the process as
 * busy), with the tenant's share of that half counting its own due runs and background work, and
 * only within the {@link BackgroundWindow window}, which closes when new runs stay due longer than
 * they do alone. Background work under way counts in its tenant's share of the limit for new runs
 * too, so a tenant's moves take from its own share and not from another tenant's.
 *
 * <p>Operators see it in the metrics: {@code crm.trigger.admission.wait} (how long calls let in
 * waited for their slot), {@code crm.trigger.admission.refused} (tagged {@code reason=due} or
 * {@code pace}), {@code crm.trigger.admission.due}, {@code crm.trigger.admission.waiting} (calls
 * let in on a slot still ahead), {@code crm.trigger.admission.limit} (runs that may be due now) and
 * {@code crm.trigger.admission.pace} (calls let in per second at most now), {@code
 * crm.trigger.admission.background} (background work under way now) and {@code
 * crm.trigger.admission.background.window} (background work that may be under way now).
 */
@Component
public class RunAdmission implements OutboundCallObserver, RunProgress {

  static final Duration TRACKED_WAKEUPS = Duration.ofSeconds(60);
  static final Duration FORGET_DUE_AFTER = Duration.ofSeconds(60);

  /** An http_request times out after 65 s at most; a call not heard back from by then is over. */
  static final Duration FORGET_CALL_AFTER = Duration.ofMinutes(2);

  /** Background work waits this long after a trigger call was held back. */
  static final Duration BACKGROUND_YIELDS_FOR = Duration.ofSeconds(1);

  /**
   * With {@code max-due-time}: the fewest due runs the limit falls to, as a part of max-due-runs.
   */
  static final int FLOOR_DIVISOR = 8;

  /** With {@code max-due-time}: the part of the limit a run due too long takes off. */
  static final double BACKOFF = 0.9;

  /** Slots of tenants without a call for this long are dropped (a new slot lets a call in). */
  private static final Duration FORGET_SLOT_AFTER = Duration.ofMinutes(1);

  /**
   * What the admission decided for one call.
   *
   * @param admitted whether the run is let in (and counted as due)
   * @param delay how long the caller sleeps until its slot before the run starts (0: none)
   * @param retryAfterSeconds when refused: the Retry-After to answer with
   * @param reason when refused: {@code due} (the tenant's share of the due runs is taken) or {@code
   *     pace} (its next slot is further than max-wait)
   */
  public record Decision(boolean admitted, Duration delay, long retryAfterSeconds, String reason) {

    static Decision letIn(Duration delay) {
      return new Decision(true, delay, 0, null);
    }

    static Decision refused(long retryAfterSeconds, String reason) {
      return new Decision(false, Duration.ZERO, retryAfterSeconds, reason);
    }
  }

  private final int limit;

  /** The due runs allowed now, following how long runs stay due; null: {@link #limit} alone. */
  private final AIMDLimit dueTimeLimit;

  private final Duration maxWait;
  private final Clock clock;
  private final Timer waits;
  private final Counter refusedForDue;
  private final Counter refusedForPace;

  private final ReentrantLock lock = new ReentrantLock();

  private record Counted(UUID tenant, Instant at) {}

  /** Due runs, their tenant and since when (guarded by lock, as every field below). */
  private final Map<UUID, Counted> due = new HashMap<>();

  /** Due runs per tenant; a tenant without any is absent. */
  private final Map<UUID, Integer> duePerTenant = new HashMap<>();

  /** Runs waiting on an http_request's peer, and since when. */
  private final Map<UUID, Counted> inCall = new HashMap<>();

  /** Runs waiting on a short delay, and until when. */
  private final Map<UUID, Counted> waiting = new HashMap<>();

  private record Wakeup(Instant at, UUID runId) {}

  /** The waiting runs by wake-up time; an entry is stale once its run left {@link #waiting}. */
  private final PriorityQueue<Wakeup> wakeups =
      new PriorityQueue<>((a, b) -> a.at().compareTo(b.at()));

  /** When each call let in on a later slot of the pace has its slot, while that is ahead. */
  private final PriorityQueue<Instant> slotsAhead = new PriorityQueue<>();

  /** The pace calls are let in at; null when not paced. */
  private final AdmissionPace pace;

  /** Each tenant's slots of the pace. */
  private final Map<UUID, AdmissionPace.Slot> slots = new HashMap<>();

  /** Whether a call was held back by the pace since the pace last counted a call. */
  private boolean heldSinceTake;

  /** When a trigger call was last refused or let in on a later slot. */
  private Instant lastHeld = Instant.MIN;

  /** Background work under way, its tenant and since when. */
  private final Map<UUID, Counted> background = new HashMap<>();

  /** Background work under way per tenant; a tenant without any is absent. */
  private final Map<UUID, Integer> backgroundPerTenant = new HashMap<>();

  private final BackgroundWindow backgroundWindow;

  @Autowired
  RunAdmission(CrmProperties properties, MeterRegistry meters) {
    this(
        properties.trigger().admission().maxDueRuns(),
        properties.trigger().admission().maxWait(),
        properties.trigger().admission().paced(),
        properties.trigger().admission().maxDueTime(),
        Clock.systemUTC(),
        meters);
  }

  /** An admission by the count of due runs alone (no {@code max-due-time}). */
  RunAdmission(int limit, Duration maxWait, boolean paced, Clock clock, MeterRegistry meters) {
    this(limit, maxWait, paced, Duration.ZERO, clock, meters);
  }

  RunAdmission(
      int limit,
      Duration maxWait,
      boolean paced,
      Duration maxDueTime,
      Clock clock,
      MeterRegistry meters) {
    this.limit = limit;
    this.dueTimeLimit =
        limit > 0 && isPositive(maxDueTime)
            ? AIMDLimit.newBuilder()
                .initialLimit(limit)
                .maxLimit(limit)
                .minLimit(Math.max(1, limit / FLOOR_DIVISOR))
                .backoffRatio(BACKOFF)
                .timeout(maxDueTime.toNanos(), TimeUnit.NANOSECONDS)
                .build()
            : null;
    this.pace = paced && limit > 0 ? new AdmissionPace(limit, clock.instant()) : null;
    this.maxWait = maxWait;
    this.clock = clock;
    this.backgroundWindow = new BackgroundWindow(clock.instant());
    this.waits =
        Timer.builder("crm.trigger.admission.wait")
            .description("How long trigger calls let in waited for their slot of the pace")
            .publishPercentileHistogram()
            .register(meters);
    this.refusedForDue = refused(meters, "due");
    this.refusedForPace = refused(meters, "pace");
    Gauge.builder("crm.trigger.admission.due", this, RunAdmission::dueNow)
        .description("Runs accepted by the trigger and due now (the admission's count)")
        .register(meters);
    Gauge.builder("crm.trigger.admission.limit", this, RunAdmission::limitNow)
        .description(
            "Runs that may be due now (max-due-runs, or fewer under max-due-time; 0: no admission)")
        .register(meters);
    Gauge.builder("crm.trigger.admission.pace", this, RunAdmission::paceNow)
        .description("Trigger calls let in per second at most now (the pace; 0 when not paced)")
        .register(meters);
    Gauge.builder("crm.trigger.admission.waiting", this, RunAdmission::callsWaiting)
        .description("Trigger calls let in on a slot of the pace that is still ahead")
        .register(meters);
    Gauge.builder("crm.trigger.admission.background", this, RunAdmission::backgroundNow)
        .description("Background work (moves of waiting runs) under way now")
        .register(meters);
    Gauge.builder(
            "crm.trigger.admission.background.window", this, RunAdmission::backgroundWindowNow)
        .description("Background work that may be under way now beside new runs")
        .register(meters);
  }

  private static Counter refused(MeterRegistry meters, String reason) {
    return Counter.builder("crm.trigger.admission.refused")
        .description(
            "Trigger calls refused with 503 (due: the tenant's share of due runs taken;"
                + " pace: its next slot further than max-wait)")
        .tag("reason", reason)
        .register(meters);
  }

  /**
   * How {@link #decide} would refuse a call of the tenant now, without taking anything (no slot
   * booked, nothing counted): null when it would let the call in. The trigger's filter asks this
   * before any other work, so a tenant past its share of the admission is refused as cheaply as one
   * past its quota; {@link #decide} still decides each call that gets through.
   */
  public Decision refusalNow(UUID tenant) {
    if (limit <= 0) {
      return null;
    }
    lock.lock();
    try {
      Instant now = clock.instant();
      return refusal(tenant, pace == null ? null : slots.get(tenant), now, dueCount());
    } finally {
      lock.unlock();
    }
  }

  /**
   * The refusal of a call of the tenant now (guarded by lock), or null: "due" while the limit is
   * reached and the tenant has its share, "pace" while its slot (if any) is further than max-wait.
   */
  private Decision refusal(UUID tenant, AdmissionPace.Slot slot, Instant now, int total) {
    int allowed = allowedDue();
    if (total >= allowed && mine(tenant) >= share(tenant, allowed)) {
      lastHeld = now;
      refusedForDue.increment();
      return Decision.refused(1, "due");
    }
    if (slot != null) {
      Duration untilSlot = slot.untilNext(now);
      if (untilSlot.compareTo(maxWait) > 0) {
        heldSinceTake = true;
        lastHeld = now;
        refusedForPace.increment();
        return Decision.refused(ceilSeconds(untilSlot), "pace");
      }
    }
    return null;
  }

  /**
   * Decides a call at once, without waiting: a run let in is counted as due (from now, though the
   * call may still sleep until its slot).
   */
  public Decision decide(UUID tenant, UUID runId) {
    if (limit <= 0) {
      return Decision.letIn(Duration.ZERO);
    }
    lock.lock();
    try {
      Instant now = clock.instant();
      int total = dueCount();
      Decision refused = refusal(tenant, pace == null ? null : slots.get(tenant), now, total);
      if (refused != null) {
        return refused;
      }
      Duration wait = Duration.ZERO;
      if (pace != null) {
        // a tenant's first slot is free at once: refusal had nothing of it to judge
        AdmissionPace.Slot slot = slots.computeIfAbsent(tenant, t -> new AdmissionPace.Slot(now));
        int tenants = duePerTenant.size() + (duePerTenant.containsKey(tenant) ? 0 : 1);
        wait = Duration.between(now, slot.book(now, pace.spacing(tenants)));
        if (isPositive(wait)) {
          lastHeld = now;
          slotsAhead.add(now.plus(wait));
        }
        slotsAheadOf(now);
        pace.take(now, total, heldSinceTake || isPositive(wait));
        heldSinceTake = false;
        forgetIdleSlots(now);
      }
      countDue(runId, tenant, now);
      waits.record(wait);
      return Decision.letIn(wait);
    } finally {
      lock.unlock();
    }
  }

  /** The run waits on a delay until then: not due before that, and forgotten if that is far. */
  @Override
  public void waitsUntil(UUID runId, Instant until) {
    change(
        () -> {
          // a run whose short delay is over is due from its wake-up, though no call asked since
          dueCount();
          Counted counted = uncountDue(runId);
          newRunWasDue(counted);
          Counted slept = waiting.remove(runId);
          Counted run = counted != null ? counted : slept;
          if (run != null
              && Duration.between(clock.instant(), until).compareTo(TRACKED_WAKEUPS) <= 0) {
            waiting.put(runId, new Counted(run.tenant(), until));
            wakeups.add(new Wakeup(until, runId));
          } else if (run != null && pace != null) {
            pace.runEnded();
          }
          return counted != null;
        });
  }

  /** The run ended (or was not accepted after all): no longer counted. */
  @Override
  public void ended(UUID runId) {
    change(
        () -> {
          dueCount();
          Counted wasDue = uncountDue(runId);
          newRunWasDue(wasDue);
          boolean counted =
              wasDue != null | waiting.remove(runId) != null | inCall.remove(runId) != null;
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
            dueCount(); // a run woken from a short delay since the last count calls out now
            Counted run = uncountDue(runId);
            if (run == null) {
              return false;
            }
            newRunWasDue(run);
            inCall.put(runId, new Counted(run.tenant(), clock.instant()));
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
            Counted run = inCall.remove(runId);
            if (run != null) {
              countDue(runId, run.tenant(), clock.instant());
            }
            return false;
          });
    }
  }

  /**
   * Lets background work on the run in with what new runs leave (see the class comment), counted
   * for its tenant until {@link #finished}; false when it should wait and ask again. Always lets it
   * in when the limit is 0 (off).
   */
  public boolean tryStart(UUID tenant, UUID runId) {
    if (limit <= 0) {
      return true;
    }
    lock.lock();
    try {
      Instant now = clock.instant();
      int room = Math.max(1, allowedDue() / 2);
      if (Duration.between(lastHeld, now).compareTo(BACKGROUND_YIELDS_FOR) < 0
          || dueCount() + background.size() >= room
          || mine(tenant) >= share(tenant, room)
          || background.size() >= backgroundWindow.width(now)) {
        return false;
      }
      if (background.put(runId, new Counted(tenant, now)) == null) {
        backgroundPerTenant.merge(tenant, 1, Integer::sum);
      }
      backgroundWindow.worked(now);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** The work on the run started by {@link #tryStart} is over (done or failed). */
  public void finished(UUID runId) {
    change(
        () -> {
          Counted work = background.remove(runId);
          if (work != null) {
            backgroundPerTenant.computeIfPresent(work.tenant(), (t, n) -> n == 1 ? null : n - 1);
            backgroundWindow.worked(clock.instant());
          }
          return work != null;
        });
  }

  /** Background work under way now. */
  public int backgroundNow() {
    lock.lock();
    try {
      return background.size();
    } finally {
      lock.unlock();
    }
  }

  /** Background work that may be under way now. */
  public int backgroundWindowNow() {
    lock.lock();
    try {
      return limit <= 0 ? 0 : backgroundWindow.width(clock.instant());
    } finally {
      lock.unlock();
    }
  }

  /** The tenant's due runs and background work under way (guarded by lock). */
  private int mine(UUID tenant) {
    return duePerTenant.getOrDefault(tenant, 0) + backgroundPerTenant.getOrDefault(tenant, 0);
  }

  /**
   * The tenant's share of {@code capacity}: divided evenly between the tenants with due runs or
   * background work, itself included, at least one (guarded by lock).
   */
  private int share(UUID tenant, int capacity) {
    int tenants = duePerTenant.size();
    for (UUID other : backgroundPerTenant.keySet()) {
      if (!duePerTenant.containsKey(other)) {
        tenants++;
      }
    }
    if (mine(tenant) == 0) {
      tenants++;
    }
    return (capacity + tenants - 1) / tenants;
  }

  /**
   * A new run stopped being due (null: it was not counted): the window, and the limit under
   * max-due-time, read how long it was.
   */
  private void newRunWasDue(Counted run) {
    if (run != null) {
      Instant now = clock.instant();
      backgroundWindow.newRunWasDue(run.at(), background.size(), now);
      if (dueTimeLimit != null) {
        long dueNanos = Duration.between(run.at(), now).toNanos();
        // the run itself was one of the due runs its time speaks of
        dueTimeLimit.onSample(0, dueNanos, due.size() + 1, false);
      }
    }
  }

  /** The due runs allowed now (guarded by lock). */
  private int allowedDue() {
    return dueTimeLimit == null ? limit : dueTimeLimit.getLimit();
  }

  /** Runs that may be due now. */
  public int limitNow() {
    lock.lock();
    try {
      return allowedDue();
    } finally {
      lock.unlock();
    }
  }

  /** Due runs now. */
  public int dueNow() {
    lock.lock();
    try {
      return dueCount();
    } finally {
      lock.unlock();
    }
  }

  /** Due runs of this tenant now. */
  public int dueNow(UUID tenant) {
    lock.lock();
    try {
      dueCount();
      return duePerTenant.getOrDefault(tenant, 0);
    } finally {
      lock.unlock();
    }
  }

  /** Calls let in per second at most now. */
  public double paceNow() {
    lock.lock();
    try {
      return pace == null ? 0 : pace.perSecond();
    } finally {
      lock.unlock();
    }
  }

  /** Calls let in on a later slot of the pace whose slot is still ahead. */
  public int callsWaiting() {
    lock.lock();
    try {
      return slotsAheadOf(clock.instant());
    } finally {
      lock.unlock();
    }
  }

  /** Forgets the slots that have come (each decision does, so the queue holds max-wait at most). */
  private int slotsAheadOf(Instant now) {
    while (!slotsAhead.isEmpty() && !slotsAhead.peek().isAfter(now)) {
      slotsAhead.poll();
    }
    return slotsAhead.size();
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

  private static boolean isPositive(Duration duration) {
    return !duration.isNegative() && !duration.isZero();
  }

  private static long ceilSeconds(Duration duration) {
    long nanos = duration.toNanos();
    long second = TimeUnit.SECONDS.toNanos(1);
    return Math.max(1, (nanos + second - 1) / second);
  }

  /** Applies the change under the lock (nothing waits for room: the result is not needed). */
  private void change(BooleanSupplier change) {
    if (limit <= 0) {
      return;
    }
    lock.lock();
    try {
      change.getAsBoolean();
    } finally {
      lock.unlock();
    }
  }

  private void countDue(UUID runId, UUID tenant, Instant at) {
    if (due.put(runId, new Counted(tenant, at)) == null) {
      duePerTenant.merge(tenant, 1, Integer::sum);
    }
  }

  private Counted uncountDue(UUID runId) {
    Counted run = due.remove(runId);
    if (run != null) {
      duePerTenant.computeIfPresent(run.tenant(), (t, n) -> n == 1 ? null : n - 1);
    }
    return run;
  }

  private void forgetIdleSlots(Instant now) {
    if (slots.size() > 1_000) {
      Instant idleBefore = now.minus(FORGET_SLOT_AFTER);
      slots.values().removeIf(slot -> now.plus(slot.untilNext(now)).isBefore(idleBefore));
    }
  }

  /** Moves runs whose delay is over back to due, and forgets what was counted too long. */
  private int dueCount() {
    Instant now = clock.instant();
    while (!wakeups.isEmpty() && !wakeups.peek().at().isAfter(now)) {
      Wakeup wakeup = wakeups.poll();
      Counted slept = waiting.get(wakeup.runId());
      if (slept != null && wakeup.at().equals(slept.at())) {
        waiting.remove(wakeup.runId());
        countDue(wakeup.runId(), slept.tenant(), wakeup.at());
      }
    }
    if (due.size() >= allowedDue()) {
      Instant dueBefore = now.minus(FORGET_DUE_AFTER);
      due.entrySet().stream()
          .filter(e -> e.getValue().at().isBefore(dueBefore))
          .map(Map.Entry::getKey)
          .toList()
          .forEach(this::uncountDue);
      Instant calledBefore = now.minus(FORGET_CALL_AFTER);
      inCall.values().removeIf(since -> since.at().isBefore(calledBefore));
    }
    return due.size();
  }
}
