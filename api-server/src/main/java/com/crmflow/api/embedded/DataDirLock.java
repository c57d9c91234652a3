package com.crmflow.api.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The service's hold on its data directory, for as long as the JVM runs: an exclusive lock on
 * {@code ${crm.data-dir}/service.lock}. The operating system lets go of it when the process ends,
 * however it ends, so a lock that can be taken means no live service uses the directory, and any
 * PostgreSQL or Temporal dev server still running on its files was left behind by one that was
 * killed: those are stopped before the embedded parts start again. A second service on the same
 * directory is refused instead of starting a second database or Temporal on the same files.
 */
public final class DataDirLock implements AutoCloseable {

  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * @throws DataDirInUse when another live process holds the directory
   */
  public static DataDirLock acquire(Path dataDir) {
    Path file = dataDir.resolve("service.lock");
    try {
      Files.createDirectories(dataDir);
      FileChannel channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException heldInThisJvm) {
        lock = null;
      }
      if (lock == null) {
        String holder = Files.readString(file, StandardCharsets.UTF_8).trim();
        channel.close();
        throw new DataDirInUse(
            "The data directory "
                + dataDir.toAbsolutePath().normalize()
                + " is in use by another running service"
                + (holder.isEmpty() ? "" : " (pid " + holder + ")")
                + ".",
            "Stop that service first, or give this one a directory of its own with"
                + " --crm.data-dir=<path>.");
      }
      channel.truncate(0);
      channel.write(
          java.nio.ByteBuffer.wrap(
              String.valueOf(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)),
          0);
      return new DataDirLock(channel, lock);
    } catch (IOException e) {
      throw new UncheckedIOException("could not lock the data directory " + dataDir, e);
    }
  }

  @Override
  public void close() throws IOException {
    lock.release();
    channel.close();
  }

  /** Another live service holds the data directory. */
  public static final class DataDirInUse extends EmbeddedPartUnavailable {
    DataDirInUse(String description, String action) {
      super(description, action);
    }
  }
}
