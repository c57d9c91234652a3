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

  /** Spring Boot's launcher that adds {@code loader.path} to an executable jar's classpath. */
  private static final String PROPERTIES_LAUNCHER =
      "org.springframework.boot.loader.launch.PropertiesLauncher";

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
    List<String> command = java(heap);
    command.addAll(List.of("-jar", jar(dir, nameRegex, missing).toString()));
    command.addAll(arguments);
    return launch(command, log, environment);
  }

  /**
   * As {@link #start(String, String, String, String, Path, List)}, with {@code loaderPath} (jars or
   * directories) on the jar's classpath: Spring Boot's {@code PropertiesLauncher} runs {@code
   * mainClass} with {@code -Dloader.path}, as an operator adds jars of their own to a service.
   */
  static Process startWithLoaderPath(
      String dir,
      String nameRegex,
      String missing,
      String heap,
      Path log,
      String mainClass,
      List<Path> loaderPath,
      List<String> arguments)
      throws IOException {
    List<String> command = java(heap);
    command.addAll(
        List.of(
            "-cp",
            jar(dir, nameRegex, missing).toString(),
            "-Dloader.path="
                + String.join(
                    ",", loaderPath.stream().map(p -> p.toAbsolutePath().toString()).toList()),
            "-Dloader.main=" + mainClass,
            PROPERTIES_LAUNCHER));
    command.addAll(arguments);
    return launch(command, log, Map.of());
  }

  private static List<String> java(String heap) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap));
    command.addAll(TestJvms.OPTIONS);
    return command;
  }

  private static Path jar(String dir, String nameRegex, String missing) throws IOException {
    if (!Files.isDirectory(Path.of(dir))) {
      throw new IllegalStateException(missing + " (there is no " + dir + ")");
    }
    try (Stream<Path> files = Files.list(Path.of(dir))) {
      return files
          .filter(p -> p.getFileName().toString().matches(nameRegex))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException(missing));
    }
  }

  private static Process launch(List<String> command, Path log, Map<String, String> environment)
      throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    return builder.start();
  }
}
