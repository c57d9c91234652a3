package com.crmflow.api.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import org.junit.jupiter.api.Test;

/** Which failures pass over one schedule row and which end the reconciler's pass. */
class ScheduleRefusalTest {

  private static RuntimeException wrapped(Status status) {
    return new RuntimeException("start failed", status.asRuntimeException());
  }

  @Test
  void anArgumentTemporalRejectsIsARefusalOfThatRow() {
    assertThat(ScheduleTriggers.refusedByTemporal(wrapped(Status.INVALID_ARGUMENT))).isTrue();
    assertThat(ScheduleTriggers.refusedByTemporal(wrapped(Status.FAILED_PRECONDITION))).isTrue();
  }

  @Test
  void temporalNotAnsweringOverloadedOrFailingHoldsForEveryRow() {
    assertThat(ScheduleTriggers.refusedByTemporal(wrapped(Status.UNAVAILABLE))).isFalse();
    assertThat(ScheduleTriggers.refusedByTemporal(wrapped(Status.DEADLINE_EXCEEDED))).isFalse();
    assertThat(ScheduleTriggers.refusedByTemporal(wrapped(Status.RESOURCE_EXHAUSTED))).isFalse();
    assertThat(ScheduleTriggers.refusedByTemporal(wrapped(Status.INTERNAL))).isFalse();
  }

  @Test
  void aFailureWithoutTemporalsAnswerIsNoRefusal() {
    assertThat(ScheduleTriggers.refusedByTemporal(new IllegalStateException("database down")))
        .isFalse();
  }
}
