package com.crmflow.api.support;

import com.crmflow.api.embedded.DataDirLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.util.FileSystemUtils;

/**
 * The data directories of the services the API tests start, one per Spring test context under
 * {@code target/test-data}. A context's embedded PostgreSQL and Temporal keep theirs until the JVM
 * ends, so the directories of earlier test runs are removed when a test JVM starts: those no live
 * service holds (see {@link DataDirLock}). A directory of a 1M-contact benchmark takes gigabytes.
 */
final class TestDataDirs {

  static final Path ROOT = Path.of("target", "test-data");

  private TestDataDirs() {}

  /**
   * Removes every directory under {@code root} that no running service holds and that is older than
   * this JVM. A younger one belongs to a test JVM started beside this one (surefire runs several),
   * whose service may not hold its lock yet.
   */
  static void removeUnheld(Path root) {
    Instant started = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
    Path lock = root.resolveSibling(root.getFileName() + ".lock");
    try {
      Files.createDirectories(lock.getParent());
      // the test JVMs that start together clean up one after the other
      try (FileChannel channel =
              FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock held = channel.lock()) {
        removeUnheld(root, started);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Removes every directory under {@code root} unheld and last changed before {@code before}. */
  static void removeUnheld(Path root, Instant before) {
    if (!Files.isDirectory(root)) {
      return;
    }
    List<Path> dirs;
    try (Stream<Path> children = Files.list(root)) {
      dirs = children.filter(Files::isDirectory).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (Path dir : dirs) {
      try {
        if (!Files.exists(dir) || !Files.getLastModifiedTime(dir).toInstant().isBefore(before)) {
          continue;
        }
        DataDirLock.acquire(dir).close();
      } catch (DataDirLock.DataDirInUse held) {
        continue;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      try {
        FileSystemUtils.deleteRecursively(dir);
      } catch (IOException e) {
        throw new UncheckedIOException("could not remove an earlier test run's data in " + dir, e);
      }
    }
  }
}
