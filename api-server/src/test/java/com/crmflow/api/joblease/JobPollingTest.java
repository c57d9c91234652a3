package com.crmflow.api.joblease;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When a job runner looks for a job: each pause while busy, once a second while idle. */
class JobPollingTest {

  private static final long MS = 1_000_000L;

  private final AtomicLong now = new AtomicLong(5_000 * MS);
  private final JobPolling polling = new JobPolling(now::get);

  /** Advances the clock by {@code ms} and answers whether a look is due then. */
  private boolean dueAfter(long ms) {
    now.addAndGet(ms * MS);
    return polling.due();
  }

  @Test
  void anIdleRunnerLooksOnceASecondAfterItsFirstSecond() {
    // its first second: every pause
    for (int pause = 0; pause < 9; pause++) {
      assertThat(dueAfter(100)).as("pause %d of the first second", pause).isTrue();
      polling.looked(false);
    }
    now.addAndGet(100 * MS); // the first second is over, the last look was 100 ms ago
    int looks = 0;
    for (int pause = 0; pause < 50; pause++) { // the next 5 s
      if (dueAfter(100)) {
        looks++;
        polling.looked(false);
      }
    }
    assertThat(looks).isEqualTo(5);
  }

  @Test
  void aRunnerThatFindsAJobLooksEveryPauseUntilASecondAfterItsLastFind() {
    now.addAndGet(5_000 * MS); // well past the first second
    assertThat(polling.due()).isTrue();
    polling.looked(true);
    for (int pause = 0; pause < 20; pause++) { // a job of 20 pages
      assertThat(dueAfter(100)).as("page %d", pause).isTrue();
      polling.looked(true);
    }
    int looks = 0;
    for (int pause = 0; pause < 30; pause++) { // the job is over: 3 s
      if (dueAfter(100)) {
        looks++;
        polling.looked(false);
      }
    }
    assertThat(looks).as("9 pauses of the last find's second, then 2 idle looks").isEqualTo(11);
  }

  @Test
  void aJobMadeInThisProcessIsLookedForAtTheNextPauseAndForASecond() {
    now.addAndGet(5_000 * MS);
    polling.looked(false);
    assertThat(dueAfter(100)).as("idle: 100 ms after a look").isFalse();

    polling.wake(); // its transaction may commit a moment later
    assertThat(dueAfter(100)).isTrue();
    polling.looked(false); // not committed yet
    assertThat(dueAfter(100)).as("still within the second after the wake").isTrue();
    polling.looked(true);
    assertThat(dueAfter(100)).isTrue();
  }
}
