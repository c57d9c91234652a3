package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.internal.testservice.TestServicesStarter;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Fails when a Temporal SDK upgrade moves the internals the embedded-server fix relies on. */
class TimeSkippingLogFixTest {

  @Test
  void theTimerStopsKeepingLockEventsAndStillCountsLocks() throws Exception {
    try (TestServicesStarter starter = new TestServicesStarter(true, 0)) {
      assertThat(TimeSkippingLogFix.apply(starter)).isNull();

      Object timer = field(starter, "selfAdvancingTimer");
      List<?> events = (List<?>) field(timer, "lockEvents");
      // a lock taken and released through a handle, as the server does on every state change
      Method lock = timer.getClass().getMethod("lockTimeSkipping", String.class);
      lock.setAccessible(true);
      Object handle = lock.invoke(timer, "test");
      assertThat(events).isEmpty();
      Method unlock = handle.getClass().getMethod("unlock");
      unlock.setAccessible(true);
      unlock.invoke(handle); // throws "Unbalanced lock and unlock calls" if the removal failed
      assertThat(events).isEmpty();
    }
  }

  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(owner);
  }
}
