package com.crmflow.api.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The service's jars run as processes of their own, as {@code java -jar} runs them. */
final class JarProcesses {

  private JarProcesses() {}

  /**
   * Starts {@code java -Xmx<heap> <TestJvms.OPTIONS> -jar <the jar in dir whose name matches>
   * <arguments>}, its output going to {@code log}.
   *
   * @param missing what to do when there is no such jar ("package api-server first")
   */
  static Process start(
      String dir, String nameRegex, String missing, String heap, Path log, List<String> arguments)
      throws IOException {
    return start(dir, nameRegex, missing, heap, log, arguments, Map.of());
  }

  /**
   * As {@link #start(String, String, String, String, Path, List)}, with these environment
   * variables.
   */
  static Process start(
      String dir,
      String nameRegex,
      String missing,
      String heap,
      Path log,
      List<String> arguments,
      Map<String, String> environment)
      throws IOException {
    Path jar;
    try (Stream<Path> files = Files.list(Path.of(dir))) {
      jar =
          files
              .filter(p -> p.getFileName().toString().matches(nameRegex))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException(missing));
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap));
    command.addAll(TestJvms.OPTIONS);
    command.addAll(List.of("-jar", jar.toString()));
    command.addAll(arguments);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    return builder.start();
  }
}
