package com.crmflow.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.embedded.DataDirLock;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestDataDirsTest {

  @Test
  void anEarlierRunsDataIsRemovedAndALiveServicesIsKept(@TempDir Path root) throws Exception {
    Path earlier = root.resolve("earlier");
    DataDirLock.acquire(earlier).close();
    Files.createDirectories(earlier.resolve("postgres/base"));
    Files.writeString(earlier.resolve("postgres/base/1"), "rows");
    Path live = root.resolve("live");
    try (DataDirLock held = DataDirLock.acquire(live)) {
      Files.writeString(live.resolve("secrets.key"), "key");

      TestDataDirs.removeUnheld(root);

      assertThat(earlier).doesNotExist();
      assertThat(live.resolve("secrets.key")).hasContent("key");
    }
  }

  @Test
  void noDataYetIsNothingToRemove(@TempDir Path root) {
    TestDataDirs.removeUnheld(root.resolve("test-data"));

    assertThat(root.resolve("test-data")).doesNotExist();
  }
}
