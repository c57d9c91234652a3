package com.crmflow.api.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Debian's Chromium and ChromeDriver, for the tests that look at what a person sees. Installed with
 * apt-get the first time a test needs them (as root, or with password-less sudo), its output shown
 * as it goes; where that cannot be done, the test fails saying how to install them.
 */
public final class Chromium {

  public static final Path BROWSER = Path.of("/usr/bin/chromium");
  public static final Path DRIVER = Path.of("/usr/bin/chromedriver");

  private static final String HOW =
      "Install Debian's Chromium and ChromeDriver: sudo apt-get update && sudo apt-get install -y"
          + " chromium chromium-driver";

  private Chromium() {}

  /** Makes sure both are installed, installing them if need be. */
  public static synchronized void ensureInstalled() {
    if (installed()) {
      return;
    }
    if (!Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
      throw new IllegalStateException("Chromium is not installed and there is no apt-get. " + HOW);
    }
    List<String> sudo = isRoot() ? List.of() : List.of("sudo", "-n");
    System.out.println("[chromium] not installed: installing chromium and chromium-driver");
    run(concat(sudo, "apt-get", "update"));
    run(
        concat(
            sudo,
            "apt-get",
            "install",
            "-y",
            "--no-install-recommends",
            "chromium",
            "chromium-driver"));
    if (!installed()) {
      throw new IllegalStateException("apt-get did not install Chromium. " + HOW);
    }
  }

  private static boolean installed() {
    return Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static List<String> concat(List<String> prefix, String... command) {
    List<String> all = new java.util.ArrayList<>(prefix);
    all.addAll(List.of(command));
    return all;
  }

  private static void run(List<String> command) {
    try {
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
      Process process = builder.start();
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        out.lines().forEach(line -> System.out.println("[chromium] " + line));
      }
      int exit = process.waitFor();
      if (exit != 0) {
        throw new IllegalStateException(
            String.join(" ", command) + " failed with exit code " + exit + ". " + HOW);
      }
    } catch (IOException e) {
      throw new IllegalStateException("could not run " + command + ": " + e + ". " + HOW, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while installing Chromium", e);
    }
  }
}
