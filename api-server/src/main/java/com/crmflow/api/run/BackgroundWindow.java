package com.crmflow.api.run;

import java.time.Duration;
import java.time.Instant;

/**
 * How much background work (a move's updates of waiting runs) {@link RunAdmission} lets run beside
 * new runs: a window of pieces under way, which opens while new runs stay due about as long as they
 * do without background work, and closes as soon as they take longer.
 *
 * <p>Background work and new runs share the worker and the Temporal server: an update of a waiting
 * run replays its history in a workflow task that queues with new runs' tasks. A due count does not
 * show that (light runs at 20 a second keep two or three due, slow or not); how long each new run
 * stays due does. So the window reads the time each new run spends due (from its admission, or its
 * wake-up, until it waits again or ends), smoothed, against the same measure taken alone: from new
 * runs that became due at least {@link #SETTLE} after the last background work ended and ended with
 * none under way. Above {@link #SLOWER} times that, the window halves; at or below, it widens by
 * one. The measure alone falls fast and rises slowly: a run slowed by background work (or by what
 * the work left queued behind it) must not pass for the process's pace alone, or each slowdown
 * would raise the bar it is judged by. It changes at most once per {@link #STEP}, long enough for
 * the last change to show in the runs that were due then. At zero, no background work runs, new
 * runs' times come back to what they are alone, and the window opens again: under load a move takes
 * turns with new runs instead of queueing with them.
 *
 * <p>Without new runs (none ended being due for {@link #QUIET}) the window is wide open: a move
 * takes all it is allowed, and completes at full speed when nothing else runs. Not thread-safe: the
 * admission calls it under its lock.
 */
final class BackgroundWindow {

  /** New runs due this much longer than alone: background work gives way. */
  static final double SLOWER = 1.5;

  static final Duration STEP = Duration.ofMillis(250);

  /** No new run for this long: nothing to give way to. */
  static final Duration QUIET = Duration.ofSeconds(1);

  /** The widest window (a move asks no more than {@code crm.runs.move.parallel} at once anyway). */
  static final int WIDEST = 64;

  /** After background work, new runs are measured alone once this long has passed. */
  static final Duration SETTLE = Duration.ofSeconds(1);

  private static final double RECENT_WEIGHT = 0.2;
  private static final double ALONE_FALLS = 0.2;
  private static final double ALONE_RISES = 0.02;

  /** New runs' time due alone, in ms (smoothed, falling fast, rising slowly; NaN: none yet). */
  private double alone = Double.NaN;

  /** New runs' time due lately, in ms (smoothed). */
  private double lately = Double.NaN;

  private Instant lastSpell;
  private Instant lastWork;
  private Instant steppedAt;
  private int width = WIDEST;

  BackgroundWindow(Instant now) {
    this.lastSpell = now.minus(QUIET);
    this.lastWork = now.minus(SETTLE);
    this.steppedAt = now.minus(STEP);
  }

  /** Background work started or ended now. */
  void worked(Instant now) {
    lastWork = now;
  }

  /**
   * A new run was due from {@code since} until now, and {@code underWay} pieces of background work
   * are under way now: the window is set again.
   */
  void newRunWasDue(Instant since, int underWay, Instant now) {
    double ms = Duration.between(since, now).toNanos() / 1e6;
    lately = Double.isNaN(lately) ? ms : lately + RECENT_WEIGHT * (ms - lately);
    if (underWay == 0 && !since.isBefore(lastWork.plus(SETTLE))) {
      alone =
          Double.isNaN(alone)
              ? ms
              : alone + (ms < alone ? ALONE_FALLS : ALONE_RISES) * (ms - alone);
    }
    lastSpell = now;
    if (Duration.between(steppedAt, now).compareTo(STEP) < 0) {
      return;
    }
    steppedAt = now;
    // a window wider than the work under way says nothing about what it would do to new runs
    width = Math.min(width, underWay + 1);
    if (Double.isNaN(alone) || lately > SLOWER * alone) {
      // no measure alone yet: a closed window lets one be taken
      width /= 2;
    } else {
      width = Math.min(WIDEST, width + 1);
    }
  }

  /** Pieces of background work that may be under way now. */
  int width(Instant now) {
    if (Duration.between(lastSpell, now).compareTo(QUIET) > 0) {
      width = WIDEST;
    }
    return width;
  }
}
