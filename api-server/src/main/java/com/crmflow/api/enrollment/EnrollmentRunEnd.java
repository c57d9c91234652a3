package com.crmflow.api.enrollment;

import com.crmflow.api.event.EventOutbox;
import com.crmflow.api.run.RunEndListener;
import com.crmflow.api.run.RunRepository;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.event.EventNames;
import org.springframework.stereotype.Component;

/**
 * Ends an enrollment with its run, in the run's end transaction: completed → completed (emits
 * sequence.completed), failed → failed, cancelled (by an operator or by unenroll) → unenrolled
 * (emits sequence.unenrolled unless unenroll got there first).
 */
@Component
class EnrollmentRunEnd implements RunEndListener {

  private final EnrollmentRepository enrollments;
  private final EventOutbox events;

  EnrollmentRunEnd(EnrollmentRepository enrollments, EventOutbox events) {
    this.enrollments = enrollments;
    this.events = events;
  }

  @Override
  public void runEnded(RunRepository.EndedRun run, String status) {
    if (run.enrollmentId() == null) {
      return; // not an enrollment's run: nothing to end, no statement spent on finding out
    }
    String ended =
        switch (status) {
          case RunResult.COMPLETED -> Enrollment.COMPLETED;
          case RunResult.CANCELLED -> Enrollment.UNENROLLED;
          default -> Enrollment.FAILED;
        };
    enrollments
        .endByRun(run.id(), ended)
        .ifPresent(
            e -> {
              String event =
                  switch (ended) {
                    case Enrollment.COMPLETED -> EventNames.SEQUENCE_COMPLETED;
                    case Enrollment.UNENROLLED -> EventNames.SEQUENCE_UNENROLLED;
                    default -> null;
                  };
              if (event != null) {
                events.emit(
                    e.tenantId(),
                    event,
                    EnrollmentService.eventData(e, enrollments.sequenceName(e)));
              }
            });
  }
}
