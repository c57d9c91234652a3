package com.crmflow.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * bench/n8n, the peer the trigger benchmark is compared with, stays runnable from a clone: its
 * scripts parse, its harness is the project's own bench/TriggerBench.java, and its two workflows
 * are the benchmark's flows A and B. Running n8n itself takes an install of 3 GB, so the build
 * checks the scripts without it; docs/benchmarks.md has the run.
 */
class N8nPeerScriptsTest {

  private static final Path PEER = Path.of("..", "bench", "n8n");

  @Test
  void thePeersScriptsParseAndDriveTheProjectsOwnHarness() throws Exception {
    for (String script : new String[] {"install.sh", "run.sh"}) {
      Process check =
          new ProcessBuilder("bash", "-n", PEER.resolve(script).toString())
              .redirectErrorStream(true)
              .start();
      assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
      String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(check.exitValue()).as(script + ": " + output).isZero();
    }
    String run = Files.readString(PEER.resolve("run.sh"));
    assertThat(run)
        .contains("HARNESS=\"${HARNESS:-$HERE/../TriggerBench.java}\"")
        .contains("java \"$HARNESS\"");
    assertThat(PEER.resolve("../TriggerBench.java")).isRegularFile();
  }

  @Test
  void thePeersWorkflowsAreFlowsAAndB() throws Exception {
    JsonMapper json = JsonMapper.builder().build();
    JsonNode a = json.readTree(PEER.resolve("webhook-http.json").toFile());
    JsonNode b = json.readTree(PEER.resolve("webhook-delay-http.json").toFile());
    assertThat(a.toString())
        .contains("bench-a")
        .contains("httpRequest")
        .doesNotContain("nodes-base.wait");
    assertThat(b.toString())
        .contains("bench-b")
        .contains("httpRequest")
        .contains("nodes-base.wait");
  }
}
