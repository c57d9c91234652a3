package com.crmflow.workflow.schedule;

import com.crmflow.workflow.TaskQueues;
import io.temporal.activity.ActivityOptions;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;

/**
 * Fire times come from {@link FireSchedule} (daylight saving handled there). Missed fires (the
 * service was down over one or more fire times): only the latest of them runs, and only if it is at
 * most {@link #CATCH_UP} old when the schedule wakes; older ones are skipped. Overlap: every fire
 * starts its own run, whether or not the previous run is still going.
 */
public class ScheduleTriggerWorkflowImpl implements ScheduleTriggerWorkflow {

  /** How late a missed fire may still run. */
  public static final Duration CATCH_UP = Duration.ofHours(1);

  /** Fires per workflow history; then continue-as-new keeps the history short. */
  static final int FIRES_PER_HISTORY = 100;

  private final ScheduleActivities runs =
      Workflow.newActivityStub(
          ScheduleActivities.class,
          ActivityOptions.newBuilder()
              .setTaskQueue(TaskQueues.CRM)
              .setStartToCloseTimeout(Duration.ofSeconds(30))
              .build());

  @Override
  public void run(ScheduleInput input) {
    FireSchedule schedule = FireSchedule.of(input.config());
    Instant cursor = input.firedUpTo() == null ? now() : Instant.parse(input.firedUpTo());
    for (int i = 0; i < FIRES_PER_HISTORY; i++) {
      Instant next = schedule.nextFireAfter(cursor);
      Duration wait = Duration.between(now(), next);
      if (wait.compareTo(Duration.ZERO) > 0) {
        Workflow.newTimer(wait, TimerOptions.newBuilder().setSummary("next fire " + next).build())
            .get();
      }
      Instant due = latestDue(schedule, next, now());
      if (Duration.between(due, now()).compareTo(CATCH_UP) <= 0) {
        runs.startScheduledRun(
            input.tenantId(),
            input.sequenceId(),
            input.nodeId(),
            input.canvasVersion(),
            due.toString());
      }
      cursor = due;
    }
    Workflow.continueAsNew(
        new ScheduleInput(
            input.tenantId(),
            input.sequenceId(),
            input.nodeId(),
            input.canvasVersion(),
            input.config(),
            cursor.toString()));
  }

  /** The latest fire time not after {@code now}, starting from {@code first} (which is due). */
  static Instant latestDue(FireSchedule schedule, Instant first, Instant now) {
    Instant due = first;
    for (Instant later = schedule.nextFireAfter(due);
        !later.isAfter(now);
        later = schedule.nextFireAfter(later)) {
      due = later;
    }
    return due;
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
