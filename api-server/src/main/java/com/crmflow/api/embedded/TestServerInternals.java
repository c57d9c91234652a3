package com.crmflow.api.embedded;

import java.lang.reflect.Field;

/** Reads and replaces private fields of the Temporal test server, for its workarounds. */
final class TestServerInternals {

  private TestServerInternals() {}

  static Object read(Object owner, String name) throws ReflectiveOperationException {
    return field(owner, name).get(owner);
  }

  static void replace(Object owner, String name, Object value) throws ReflectiveOperationException {
    field(owner, name).set(owner, value);
  }

  private static Field field(Object owner, String name) throws NoSuchFieldException {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field;
  }
}
