package com.crmflow.api.support;

import java.time.Duration;

/**
 * How long a test waits for something that happens on its own (a run ending, a delivery arriving, a
 * page becoming ready) before it gives up. A bound on a condition, never a pause: a passing test
 * waits only as long as the condition takes, which on an idle machine is well under a second. The
 * bound is wide because the tests run beside each other on two cores (three test JVMs, Chromium,
 * the Temporal servers), where a step can take many times its idle time; a wait that must also show
 * that something does <em>not</em> happen says so with Awaitility's {@code during}.
 */
public final class Patience {

  public static final Duration EVENTUALLY = Duration.ofSeconds(120);

  /**
   * How long a process a test starts (a packaged jar, Zipkin, the collector) may take to answer: a
   * JVM start that takes 8 s on an idle machine took over a minute beside a CPU hog.
   */
  public static final Duration START = Duration.ofMinutes(5);

  private Patience() {}
}
