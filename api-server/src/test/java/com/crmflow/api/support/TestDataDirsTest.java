package com.crmflow.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.embedded.DataDirLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestDataDirsTest {

  @Test
  void anEarlierRunsDataIsRemovedAndALiveServicesIsKept(@TempDir Path root) throws Exception {
    Path earlier = root.resolve("earlier");
    DataDirLock.acquire(earlier).close();
    Files.createDirectories(earlier.resolve("postgres/base"));
    Files.writeString(earlier.resolve("postgres/base/1"), "rows");
    Files.setLastModifiedTime(earlier, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
    Path live = root.resolve("live");
    try (DataDirLock held = DataDirLock.acquire(live)) {
      Files.writeString(live.resolve("secrets.key"), "key");

      TestDataDirs.removeUnheld(root);

      assertThat(earlier).doesNotExist();
      assertThat(live.resolve("secrets.key")).hasContent("key");
    }
  }

  @Test
  void aDirectoryYoungerThanThisJvmIsKeptForTheJvmBesideItThatMadeIt(@TempDir Path root)
      throws Exception {
    Path beside = root.resolve("beside");
    Files.createDirectories(beside.resolve("postgres"));

    TestDataDirs.removeUnheld(root);

    assertThat(beside.resolve("postgres")).isDirectory();
    TestDataDirs.removeUnheld(root, Instant.now().plusSeconds(1));
    assertThat(beside).doesNotExist();
  }

  @Test
  void noDataYetIsNothingToRemove(@TempDir Path root) {
    TestDataDirs.removeUnheld(root.resolve("test-data"));

    assertThat(root.resolve("test-data")).doesNotExist();
  }
}
