package com.crmflow.api.joblease;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * When a job runner's scheduled task looks for a job: every run of the task (each pause) while it
 * finds jobs and for {@link #IDLE_LOOK} after, and otherwise once per {@code IDLE_LOOK}. The job
 * tables are empty nearly all the time, and a look is a statement: three runners looking every 100
 * ms would send about thirty statements a second for nothing. A job made in this process wakes its
 * runner once its transaction commits ({@link #wake}), so it starts at the next pause; one left by
 * an api-server that stopped is taken within {@code IDLE_LOOK} of its lease running out.
 */
public final class JobPolling {

  private static final Logger log = LoggerFactory.getLogger(JobPolling.class);

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
    this.busyUntil = now;
    this.nextIdleLook = now;
  }

  /**
   * Looks for a job with {@code lease} if a look is due, and keeps what it found for the next
   * looks. A look that fails (the database unreachable) is logged as one for {@code what} and
   * counts as a look that found nothing.
   *
   * @return the job leased; empty when none was found, the look failed or no look was due
   */
  public <T> Optional<T> lookFor(String what, Supplier<Optional<T>> lease) {
    if (!due()) {
      return Optional.empty();
    }
    Optional<T> found;
    try {
      found = lease.get();
    } catch (RuntimeException unreachable) {
      log.warn("Could not look for {}: {}", what, unreachable.toString());
      found = Optional.empty();
    }
    looked(found.isPresent());
    return found;
  }

  /** Whether the runner should look for a job now. */
  boolean due() {
    long now = nanoTime.getAsLong();
    return now - busyUntil < 0 || now - nextIdleLook >= 0;
  }

  /** After a look: whether it found a job to work on. */
  void looked(boolean found) {
    long now = nanoTime.getAsLong();
    nextIdleLook = now + idleNanos;
    if (found) {
      busyUntil = now + idleNanos;
    }
  }

  /**
   * A job was made in this process: look every pause for the {@link #IDLE_LOOK} after the caller's
   * transaction commits (at once without one). A job rolled back wakes nothing.
   */
  public void wake() {
    if (TransactionSynchronizationManager.isSynchronizationActive()) {
      TransactionSynchronizationManager.registerSynchronization(
          new TransactionSynchronization() {
            @Override
            public void afterCommit() {
              busyUntil = nanoTime.getAsLong() + idleNanos;
            }
          });
    } else {
      busyUntil = nanoTime.getAsLong() + idleNanos;
    }
  }
}
