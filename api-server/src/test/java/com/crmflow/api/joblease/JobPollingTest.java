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

  /** Looks at each 100 ms pause for {@code ms}, finding nothing: how many looks were due. */
  private int idleLooksOver(long ms) {
    int looks = 0;
    for (long pause = 0; pause < ms / 100; pause++) {
      if (dueAfter(100)) {
        looks++;
        polling.looked(false);
      }
    }
    return looks;
  }

  @Test
  void anIdleRunnerLooksAtOnceThenOnceASecond() {
    assertThat(polling.due()).as("a new runner's first look").isTrue();
    polling.looked(false);
    assertThat(idleLooksOver(5_000)).isEqualTo(5);
  }

  @Test
  void aRunnerThatFindsAJobLooksEveryPauseUntilASecondAfterItsLastFind() {
    assertThat(polling.due()).isTrue();
    polling.looked(true);
    for (int page = 0; page < 20; page++) {
      assertThat(dueAfter(100)).as("page %d", page).isTrue();
      polling.looked(true);
    }
    assertThat(idleLooksOver(3_000))
        .as("the job is over: 9 pauses of its last find's second, then 2 idle looks")
        .isEqualTo(11);
  }

  @Test
  void aJobMadeInThisProcessIsLookedForAtEachPauseForASecondThenIdleAgain() {
    polling.looked(false);
    assertThat(dueAfter(100)).as("idle: 100 ms after a look").isFalse();

    polling.wake(); // no transaction here: at once
    assertThat(dueAfter(100)).isTrue();
    polling.looked(false); // say its transaction had not committed yet
    assertThat(idleLooksOver(800)).as("the rest of the wake's second").isEqualTo(8);
    assertThat(idleLooksOver(2_000)).as("then idle again").isEqualTo(2);
  }

  @Test
  void theClockWrappingAroundChangesNothing() {
    now.set(Long.MAX_VALUE - 450 * MS);
    JobPolling wrapping = new JobPolling(now::get);
    assertThat(wrapping.due()).isTrue();
    wrapping.looked(false);
    int looks = 0;
    for (int pause = 0; pause < 30; pause++) { // 3 s, across Long.MAX_VALUE
      now.addAndGet(100 * MS);
      if (wrapping.due()) {
        looks++;
        wrapping.looked(false);
      }
    }
    assertThat(looks).isEqualTo(3);
  }
}
