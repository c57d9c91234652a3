package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which dev servers run with task queue fairness: new databases and those made with it. */
class DevServerFairnessTest {

  private static final String FAIRNESS = "matching.enableFairness=true";

  @TempDir Path dir;

  @Test
  void aNewDatabaseIsMadeWithFairnessAndKeepsIt() {
    TemporalDevServer.Settings settings = settings();

    assertThat(TemporalDevServer.command(settings))
        .contains(FAIRNESS, "matching.useNewMatcher=true");
    assertThat(dir.resolve(TemporalDevServer.FAIRNESS_MARK)).exists();

    touchDatabase(settings);
    assertThat(TemporalDevServer.command(settings)).as("after a restart").contains(FAIRNESS);
  }

  @Test
  void aDatabaseMadeWithoutFairnessKeepsItOff() {
    TemporalDevServer.Settings settings = settings();
    touchDatabase(settings);

    List<String> command = TemporalDevServer.command(settings);

    assertThat(command).doesNotContain(FAIRNESS);
    assertThat(dir.resolve(TemporalDevServer.FAIRNESS_MARK)).doesNotExist();
  }

  private TemporalDevServer.Settings settings() {
    return new TemporalDevServer.Settings(Path.of("temporal"), dir, 7233, 0, "default", Map.of());
  }

  private static void touchDatabase(TemporalDevServer.Settings settings) {
    try {
      Files.writeString(settings.database(), "");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
