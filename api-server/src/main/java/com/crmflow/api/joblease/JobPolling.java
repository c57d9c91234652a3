package com.crmflow.api.joblease;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When a job runner's scheduled task looks for a job: every run of the task (each pause) while it
 * finds jobs and for {@link #IDLE_LOOK} after, and otherwise once per {@code IDLE_LOOK}. The job
 * tables are empty nearly all the time, and a look is a statement: three runners looking every 100
 * ms were about thirty statements a second for nothing. A job made in this process wakes its runner
 * ({@link #wake}), so it starts at the next pause as before; one made by another api-server (or
 * left by one that died) is taken within {@code IDLE_LOOK} of its lease allowing it.
 */
public final class JobPolling {

  /** How often an idle runner looks for a job, and how long it keeps looking every pause. */
  public static final Duration IDLE_LOOK = Duration.ofSeconds(1);

  private final LongSupplier nanoTime;
  private final long idleNanos = IDLE_LOOK.toNanos();

  /** Until when a look is due every pause (System.nanoTime). */
  private volatile long busyUntil;

  /** When the next look of an idle runner is due (System.nanoTime). */
  private volatile long nextIdleLook;

  public JobPolling() {
    this(System::nanoTime);
  }

  JobPolling(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    long now = nanoTime.getAsLong();
    this.busyUntil = now + idleNanos; // a process's first second looks every pause
    this.nextIdleLook = now;
  }

  /** Whether the runner should look for a job now. */
  public boolean due() {
    long now = nanoTime.getAsLong();
    return now - busyUntil < 0 || now - nextIdleLook >= 0;
  }

  /** After a look: whether it found a job to work on. */
  public void looked(boolean found) {
    long now = nanoTime.getAsLong();
    nextIdleLook = now + idleNanos;
    if (found) {
      busyUntil = now + idleNanos;
    }
  }

  /**
   * A job was made in this process (perhaps in a transaction not committed yet): look every pause
   * for the next {@link #IDLE_LOOK}.
   */
  public void wake() {
    busyUntil = nanoTime.getAsLong() + idleNanos;
  }
}
