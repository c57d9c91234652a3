package com.crmflow.api.run;

import java.time.Duration;
import java.time.Instant;

/**
 * The pace at which {@link RunAdmission} lets calls in: about as fast as runs end, evenly. The pace
 * is the process's; each tenant's calls are let in on the slots of its own {@link Slot}, spaced by
 * its share of the pace.
 *
 * <p>A due count alone lets calls in in waves when runs wait on short delays. While the runs sleep
 * the count is low, so calls come in faster than the process can finish runs; a delay later the
 * woken runs fill the count, and the admission closes until they are done. With a 1 s delay the
 * cycle repeated every second, and the calls that met a closed admission waited up to a second.
 * Letting calls in at the rate runs end keeps the work coming in at the rate it is done.
 *
 * <p>The rate of ends is smoothed over {@link #END_RATE_SMOOTHING}, and the pace departs from it by
 * a gain read from the due count (smoothed over {@link #DUE_SMOOTHING}) against a target of half
 * the admission's limit. Well below the target the process keeps up, and the pace is {@link #CLIMB}
 * times the rate of ends, which climbs as the runs let in end (and does not fall for a spell
 * without ends: see {@link #keepingUp}). Near and above it the process is at capacity, and the due
 * count answers a change of pace only a delay later (the delay the runs wait on); there a gentle
 * slope keeps that loop from swinging. Not thread-safe: the admission calls it under its lock.
 *
 * <p>Known limit: runs that sleep on a delay of several seconds (up to the admission's 60 s
 * horizon) end only after it, so a flood of calls for such a flow keeps the pace it found (the
 * floor in a process that has not been busy yet) until the first of them end.
 */
final class AdmissionPace {

  /** The lowest pace, whatever the measured rate of ends (the start after a quiet spell). */
  static final double FLOOR_PER_SECOND = 50;

  /** Calls let in at once after a pause: this much time's worth of the pace. */
  static final Duration BURST = Duration.ofMillis(50);

  static final double CLIMB = 1.25;

  private static final double SLOPE = 0.05;
  private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);

  /** A longer window was stretched by a pause (no call let in for a while): not a measurement. */
  private static final Duration LONGEST_SAMPLE = SAMPLE_EVERY.multipliedBy(3);

  private static final Duration END_RATE_SMOOTHING = Duration.ofSeconds(1);
  private static final Duration DUE_SMOOTHING = Duration.ofMillis(500);

  private final double targetDue;

  private Instant sampledAt;
  private int endedSinceSample;
  private boolean busySinceSample;

  /**
   * Runs ended per second (smoothed), measured only while the pace holds calls back: then it is the
   * rate the process can finish runs at. Quiet spells (callers slower than the pace, or no calls)
   * leave it as it was, so a burst after a pause starts at the last pace instead of the floor.
   */
  private double endRate;

  private double dueSmoothed;

  /** Calls let in per second at most, as last set. */
  private double perSecond = FLOOR_PER_SECOND;

  AdmissionPace(int dueLimit, Instant now) {
    this.targetDue = Math.max(1, dueLimit / 2.0);
    this.sampledAt = now;
  }

  /** A run left the admission's count for good (ended, or waits on a long delay). */
  void runEnded() {
    endedSinceSample++;
  }

  /**
   * Counts a call let in now, with this many runs due, and sets the pace again.
   *
   * @param held whether calls were held back by the pace (its slot was not now) since the last
   *     call: the pace, not the callers, set the rate
   */
  void take(Instant now, int dueRuns, boolean held) {
    busySinceSample |= held;
    sample(now, dueRuns);
    perSecond = Math.max(FLOOR_PER_SECOND, endRate * gain());
  }

  double perSecond() {
    return perSecond;
  }

  /** The time between two calls of one of {@code shares} tenants sharing the pace evenly. */
  Duration spacing(int shares) {
    return Duration.ofNanos((long) (1e9 * Math.max(1, shares) / perSecond));
  }

  /**
   * One tenant's slots: its calls are let in one spacing apart, and after a pause up to {@link
   * #BURST}'s worth of them at once. Not thread-safe (used under the admission's lock).
   */
  static final class Slot {

    /** The earliest time the next call may be let in. */
    private Instant next;

    /** A tenant's first slots: a burst's worth of calls come in at once, as after a pause. */
    Slot(Instant now) {
      this.next = now.minus(BURST);
    }

    /** How long until the next call may be let in (0 or less: now). */
    Duration untilNext(Instant now) {
      return Duration.between(now, next);
    }

    /**
     * Books the next slot for a call arriving now: the time it may be let in (now, or later when
     * the calls before it took the slots up to then); the slot after it is {@code spacing} later.
     */
    Instant book(Instant now, Duration spacing) {
      Instant earliest = now.minus(BURST);
      Instant start = next.isBefore(earliest) ? earliest : next;
      next = start.plus(spacing);
      return start.isBefore(now) ? now : start;
    }
  }

  private double gain() {
    if (keepingUp()) {
      return CLIMB;
    }
    return Math.max(0.5, 1 - SLOPE * (dueSmoothed - targetDue) / targetDue);
  }

  /**
   * Few runs are due: the process does what it is given as it comes. A sample in which no run ended
   * then says that the runs let in sleep on a delay (or that there were none to let in), not that
   * the process is slow, so it does not lower the rate of ends. Without this, a burst of calls for
   * a flow that waits 1 s after its trigger, after a quiet spell, met no ends in its first second:
   * the pace fell to 80/s and took 5 s to climb back, and those calls waited up to 400 ms instead
   * of about 140 ms. (Letting no lower measure count while few runs are due keeps the process
   * busier in steady state, and flow B's tail grows.)
   */
  private boolean keepingUp() {
    return dueSmoothed < targetDue / 4;
  }

  private void sample(Instant now, int dueRuns) {
    Duration elapsed = Duration.between(sampledAt, now);
    if (elapsed.compareTo(SAMPLE_EVERY) < 0) {
      return;
    }
    if (busySinceSample && elapsed.compareTo(LONGEST_SAMPLE) <= 0) {
      double measured = endedSinceSample / (elapsed.toNanos() / 1e9);
      if (endedSinceSample > 0 || !keepingUp()) {
        endRate += weight(elapsed, END_RATE_SMOOTHING) * (measured - endRate);
      }
    }
    dueSmoothed += weight(elapsed, DUE_SMOOTHING) * (dueRuns - dueSmoothed);
    endedSinceSample = 0;
    busySinceSample = false;
    sampledAt = now;
  }

  /** The weight of a new sample in an exponential mean over about {@code smoothing}. */
  private static double weight(Duration elapsed, Duration smoothing) {
    return 1 - Math.exp(-(double) elapsed.toNanos() / smoothing.toNanos());
  }
}
