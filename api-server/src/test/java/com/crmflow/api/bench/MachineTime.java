package com.crmflow.api.bench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where the machine's time went over a stretch of a benchmark: the share of the cores' time that
 * was busy, waited on I/O and was stolen by the hypervisor for other guests (Linux's {@code
 * /proc/stat}), and the share of the stretch this JVM spent collecting garbage. A slow stretch on a
 * virtual machine can be the host's doing, the disk's or the heap's; these tell them apart.
 */
final class MachineTime {

  private static final Path PROC_STAT = Path.of("/proc/stat");

  // columns of the line for all CPUs, in clock ticks
  private static final int IDLE = 3;
  private static final int IOWAIT = 4;
  private static final int STEAL = 7;

  private MachineTime() {}

  /** A point to measure from. */
  static Since now() {
    return new Since(allCpuTicks(), gcMillis(), System.nanoTime());
  }

  /** The counters when it was taken ({@code ticks} null where /proc/stat is not there). */
  static final class Since {

    private final long[] ticks;
    private final long gcMillis;
    private final long nanos;

    private Since(long[] ticks, long gcMillis, long nanos) {
      this.ticks = ticks;
      this.gcMillis = gcMillis;
      this.nanos = nanos;
    }

    /** "busy 91%, iowait 0%, stolen 3%, GC 2%" since then. */
    String shares() {
      double gc = (gcMillis() - gcMillis) / 1000.0 / ((System.nanoTime() - nanos) / 1e9);
      long[] current = allCpuTicks();
      if (ticks == null || current == null) {
        return "CPU unknown (no /proc/stat), GC %.0f%%".formatted(100 * gc);
      }
      long[] delta = new long[STEAL + 1];
      long total = 0;
      for (int i = 0; i <= STEAL; i++) {
        delta[i] = current[i] - ticks[i];
        total += delta[i];
      }
      double all = Math.max(1, total);
      return "busy %.0f%%, iowait %.0f%%, stolen %.0f%%, GC %.0f%%"
          .formatted(
              100 * (total - delta[IDLE] - delta[IOWAIT] - delta[STEAL]) / all,
              100 * delta[IOWAIT] / all,
              100 * delta[STEAL] / all,
              100 * gc);
    }
  }

  /** The time this JVM's collectors have taken, in milliseconds. */
  private static long gcMillis() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionTime)
        .filter(millis -> millis > 0)
        .sum();
  }

  /** user, nice, system, idle, iowait, irq, softirq, steal, … of all CPUs, or null. */
  private static long[] allCpuTicks() {
    if (!Files.isReadable(PROC_STAT)) {
      return null;
    }
    try (var lines = Files.lines(PROC_STAT)) {
      return lines
          .filter(line -> line.startsWith("cpu "))
          .findFirst()
          .map(line -> Arrays.stream(line.substring(4).trim().split("\\s+")))
          .map(columns -> columns.mapToLong(Long::parseLong).toArray())
          .filter(columns -> columns.length > STEAL)
          .orElse(null);
    } catch (IOException e) {
      return null;
    }
  }
}
