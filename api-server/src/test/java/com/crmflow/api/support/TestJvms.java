package com.crmflow.api.support;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * JVM options for the services' processes that the tests start (the packaged jars, the cluster's
 * parts, the bench scripts' services and harnesses): the build's {@code test.jvm.options}, which
 * the test JVMs run with too. By default that is the quick compiler only. These JVMs live a minute
 * or two, and on two cores most of what they cost is compiling: the optimising compiler spends more
 * CPU on them than its faster code saves (docs/development.md, "Where verify's time goes"). It
 * changes how fast the code runs, not what it does. The benchmarks ({@code -Pbench}) set none.
 */
public final class TestJvms {

  /** The options, for a command line. */
  public static final List<String> OPTIONS =
      Arrays.stream(System.getProperty("crm.test.jvm-options", "").trim().split("\\s+"))
          .filter(option -> !option.isEmpty())
          .toList();

  private TestJvms() {}

  /**
   * The options for every JVM a script starts, whatever its own options: {@code JAVA_TOOL_OPTIONS},
   * after any the environment already has (a trust store, a proxy).
   */
  public static Map<String, String> environment() {
    if (OPTIONS.isEmpty()) {
      return Map.of();
    }
    String inherited = System.getenv().getOrDefault("JAVA_TOOL_OPTIONS", "").trim();
    String options = String.join(" ", OPTIONS);
    return Map.of("JAVA_TOOL_OPTIONS", inherited.isEmpty() ? options : inherited + " " + options);
  }
}
