package com.crmflow.api.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

  /**
   * Makes sure both are installed, installing them if need be. The test JVMs run side by side, so
   * the first to get here installs while the others wait for it (a lock file shared by every
   * process), and apt-get itself waits for a dpkg lock another program holds.
   */
  public static synchronized void ensureInstalled() {
    if (installed()) {
      return;
    }
    if (!Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
      throw new IllegalStateException("Chromium is not installed and there is no apt-get. " + HOW);
    }
    Path lockPath = Path.of(System.getProperty("java.io.tmpdir"), "crmflow-chromium-install.lock");
    try (FileChannel lockFile =
            FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = waitForLock(lockFile)) {
      if (installed()) {
        return; // another test JVM installed them while this one waited
      }
      install();
    } catch (IOException e) {
      throw new IllegalStateException("could not lock " + lockPath + ": " + e + ". " + HOW, e);
    }
    if (!installed()) {
      throw new IllegalStateException("apt-get did not install Chromium. " + HOW);
    }
  }

  private static FileLock waitForLock(FileChannel lockFile) throws IOException {
    FileLock lock = lockFile.tryLock();
    if (lock != null) {
      return lock;
    }
    System.out.println("[chromium] another process is installing Chromium; waiting ...");
    return lockFile.lock();
  }

  private static void install() {
    List<String> sudo = isRoot() ? List.of() : List.of("sudo", "-n");
    // waits up to ten minutes for another apt-get or dpkg to finish instead of failing at once
    String waitForDpkg = "DPkg::Lock::Timeout=600";
    System.out.println("[chromium] not installed: installing chromium and chromium-driver");
    run(concat(sudo, "apt-get", "-o", waitForDpkg, "update"));
    run(
        concat(
            sudo,
            "apt-get",
            "-o",
            waitForDpkg,
            "install",
            "-y",
            "--no-install-recommends",
            "chromium",
            "chromium-driver"));
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
