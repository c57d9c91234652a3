package com.crmflow.api.enrollment;

import com.crmflow.api.run.AutomationRun;
import com.crmflow.api.run.RunRetryListener;
import com.crmflow.api.web.ApiException;
import org.springframework.stereotype.Component;

/**
 * The retry of an enrollment's failed run carries the enrollment on: the enrollment is active again
 * with the retry as its run, and the retry's end ends it (see {@link EnrollmentRunEnd}). When the
 * contact has been enrolled again since, that newer enrollment run is the one that counts, and the
 * retry is refused (409).
 */
@Component
class EnrollmentRunRetry implements RunRetryListener {

  private final EnrollmentRepository enrollments;

  EnrollmentRunRetry(EnrollmentRepository enrollments) {
    this.enrollments = enrollments;
  }

  @Override
  public void runRetried(AutomationRun failed, AutomationRun retry) {
    if (failed.enrollmentId() == null) {
      return;
    }
    if (enrollments.resume(failed.id(), retry.id()).isEmpty()) {
      throw ApiException.conflict(
          "Run "
              + failed.id()
              + " is no longer its enrollment's current run (the contact was enrolled again"
              + " since); retry that enrollment's run instead.");
    }
  }
}
