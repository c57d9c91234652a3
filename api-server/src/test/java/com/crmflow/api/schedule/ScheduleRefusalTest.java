package com.crmflow.api.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which failures pass over one schedule row and which end the reconciler's pass. */
class ScheduleRefusalTest {

  private static RuntimeException wrapped(Status status) {
    return new RuntimeException("start failed", status.asRuntimeException());
  }

  @Test
  void anArgumentTemporalRejectsIsARefusalOfThatRow() {
    assertThat(
            ScheduleTriggers.refusalByTemporal(
                wrapped(Status.INVALID_ARGUMENT.withDescription("Blob data size exceeds limit."))))
        .hasValueSatisfying(
            status -> {
              assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(status.getDescription()).isEqualTo("Blob data size exceeds limit.");
            });
  }

  @Test
  void temporalNotAnsweringOverloadedRefusingTheServiceOrFailingHoldsForEveryRow() {
    for (Status status :
        List.of(
            Status.UNAVAILABLE,
            Status.DEADLINE_EXCEEDED,
            Status.RESOURCE_EXHAUSTED,
            Status.FAILED_PRECONDITION,
            Status.PERMISSION_DENIED,
            Status.INTERNAL)) {
      assertThat(ScheduleTriggers.refusalByTemporal(wrapped(status)))
          .as(status.getCode().name())
          .isEmpty();
    }
  }

  @Test
  void aFailureWithoutTemporalsAnswerIsNoRefusal() {
    assertThat(ScheduleTriggers.refusalByTemporal(new IllegalStateException("database down")))
        .isEmpty();
  }
}
