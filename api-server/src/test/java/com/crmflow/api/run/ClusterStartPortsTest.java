package com.crmflow.api.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.crmflow.api.support.ClusterScripts;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * deploy/cluster/start.sh checks its ports before it starts anything: a port another process holds
 * (a server told to stop that still answers, say) stops the start, naming the port, its setting and
 * the process; a running part whose port another process serves is refused too. The jars are not
 * needed: start.sh stops before it would look for them.
 */
class ClusterStartPortsTest {

  private static final long THIS_PROCESS = ProcessHandle.current().pid();

  private static ClusterScripts cluster() throws Exception {
    Files.createDirectories(Path.of("target"));
    Path dir = Files.createTempDirectory(Path.of("target"), "cluster-ports-");
    return ClusterScripts.unbuilt(dir, Map.of("CLUSTER_UI", "0"));
  }

  private static ServerSocket taking(int port) throws Exception {
    return new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
  }

  @Test
  void aPortTakenByAnotherProcessStopsTheStartNamingThePortAndItsHolder() throws Exception {
    ClusterScripts cluster = cluster();
    int frontend = cluster.port("FRONTEND_GRPC_PORT");
    int postgres = cluster.port("CLUSTER_PG_PORT");
    try (ServerSocket temporal = taking(frontend);
        ServerSocket database = taking(postgres)) {
      assertThatThrownBy(cluster::start)
          .hasMessageContaining(
              "start.sh: port "
                  + frontend
                  + " (FRONTEND_GRPC_PORT, for temporal) is taken by pid "
                  + THIS_PROCESS
                  + " (")
          .hasMessageContaining(
              "start.sh: port "
                  + postgres
                  + " (CLUSTER_PG_PORT, for postgres) is taken by pid "
                  + THIS_PROCESS
                  + " (")
          .hasMessageContaining("stop those processes, or choose other ports");
    }
    assertThat(cluster.dir().resolve("postgres")).as("nothing started").doesNotExist();
    assertThat(cluster.dir().resolve("postgres.pid")).doesNotExist();
  }

  @Test
  void aRunningPartWhosePortAnotherProcessServesIsRefused() throws Exception {
    ClusterScripts cluster = cluster();
    int frontend = cluster.port("FRONTEND_GRPC_PORT");
    // a part start.sh takes for its Temporal server: a process under the pid file naming the dir
    Process part =
        new ProcessBuilder(
                "bash",
                "-c",
                "sleep 600; :",
                cluster.dir().toRealPath().resolve("temporal").toString())
            .start();
    try (ServerSocket other = taking(frontend)) {
      Files.writeString(cluster.dir().resolve("temporal.pid"), part.pid() + "\n");
      assertThat(cluster.running("temporal")).isTrue();

      assertThatThrownBy(cluster::start)
          .hasMessageContaining(
              "start.sh: temporal runs as pid "
                  + part.pid()
                  + ", but 127.0.0.1:"
                  + frontend
                  + " (FRONTEND_GRPC_PORT) is served by pid "
                  + THIS_PROCESS);
    } finally {
      part.destroyForcibly().waitFor();
    }
  }

  @Test
  void freePortsPassTheCheck() throws Exception {
    ClusterScripts cluster = cluster();
    // with every port free the start goes past the check, to the jars it cannot find
    assertThatThrownBy(cluster::start)
        .hasMessageContaining("the tool lookup failed")
        .hasMessageNotContaining("start.sh: port")
        .hasMessageNotContaining("is served by");
  }
}
