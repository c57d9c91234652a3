package com.crmflow.api.support;

import com.crmflow.api.embedded.GoTool;
import com.crmflow.api.embedded.TemporalDevServer;
import com.crmflow.workflow.CrmSearchAttributes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Temporal dev servers that tests start themselves (the {@code distributed} shape, where the
 * service is told a target instead of starting its own): the same CLI and the same child-process
 * handling as the service's embedded one, on free ports, with the service's search attributes. The
 * CLI is found or built as the service finds it; a test fails, saying how to get one, when neither
 * works.
 */
public final class DevServers {

  private DevServers() {}

  /** A dev server with its state under a new directory in target/, and its UI. */
  public static TemporalDevServer start() {
    try {
      Files.createDirectories(Path.of("target"));
      return start(Files.createTempDirectory(Path.of("target"), "temporal-"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A dev server on the state in {@code dir} (a second one on the same state stops the first). */
  public static TemporalDevServer start(Path dir) {
    return TemporalDevServer.start(
        new TemporalDevServer.Settings(
            GoTool.locate(GoTool.TEMPORAL_CLI, System.getenv("TEMPORAL_CLI"), System.out),
            dir,
            WorkerProcess.freePort(),
            WorkerProcess.freePort(),
            "default",
            CrmSearchAttributes.namesAndTypes()));
  }
}
