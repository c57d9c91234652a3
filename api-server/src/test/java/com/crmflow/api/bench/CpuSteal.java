package com.crmflow.api.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The share of the cores' time the hypervisor gave to other guests (the "steal" column of Linux's
 * {@code /proc/stat}). On a virtual machine a slow stretch of a benchmark can be the host's doing;
 * this tells it apart from the service's.
 */
final class CpuSteal {

  private static final Path PROC_STAT = Path.of("/proc/stat");

  /** The "steal" column: the eighth number of the line for all CPUs. */
  private static final int STEAL = 7;

  private CpuSteal() {}

  /** A point to measure from. */
  static Since now() {
    return new Since(allCpuTicks());
  }

  /** The cores' time counters when it was taken, or null where /proc/stat is not there. */
  record Since(long[] ticks) {

    /** The share stolen since then, as "12%", or "unknown" where /proc/stat is not there. */
    String share() {
      long[] current = allCpuTicks();
      if (ticks == null || current == null) {
        return "unknown";
      }
      long total = 0;
      for (int i = 0; i <= STEAL; i++) {
        total += current[i] - ticks[i];
      }
      return total == 0
          ? "0%"
          : "%.0f%%".formatted(100.0 * (current[STEAL] - ticks[STEAL]) / total);
    }
  }

  /** user, nice, system, idle, iowait, irq, softirq, steal, … of all CPUs, in clock ticks. */
  private static long[] allCpuTicks() {
    if (!Files.isReadable(PROC_STAT)) {
      return null;
    }
    try (var lines = Files.lines(PROC_STAT)) {
      return lines
          .filter(line -> line.startsWith("cpu "))
          .findFirst()
          .map(
              line ->
                  Arrays.stream(line.substring(4).trim().split("\\s+"))
                      .mapToLong(Long::parseLong)
                      .toArray())
          .filter(columns -> columns.length > STEAL)
          .orElse(null);
    } catch (IOException e) {
      return null;
    }
  }
}
