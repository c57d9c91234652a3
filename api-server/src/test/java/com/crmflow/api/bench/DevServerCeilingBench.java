package com.crmflow.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.embedded.TemporalDevServer;
import com.crmflow.api.support.DevServers;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * How many workflows per second the embedded Temporal dev server completes on this machine when the
 * workflow does nothing: one eager start and one workflow task that completes it, from 32 callers,
 * as the trigger benchmark's flow A does at the least. The ceiling of any flow on the embedded
 * defaults, with the dev server's CPU share. Not a test: it prints its figures. Run with {@code
 * ./mvnw -pl api-server -am verify -Pbench -Dtest=DevServerCeilingBench}.
 */
@Tag("bench")
class DevServerCeilingBench {

  private static final int WARMUP = 3_000;
  private static final int RUNS = setting("BENCH_RUNS", 6_000);
  private static final int CALLERS = setting("BENCH_CALLERS", 32);

  /** From the environment (Maven does not hand its -D settings to the test JVM). */
  private static int setting(String name, int otherwise) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? otherwise : Integer.parseInt(value.trim());
  }

  /** Does nothing: the server's cost of a workflow, and nothing else. */
  @WorkflowInterface
  public interface Nothing {
    @WorkflowMethod
    String run(String input);
  }

  public static class NothingImpl implements Nothing {
    @Override
    public String run(String input) {
      return input;
    }
  }

  @Test
  void workflowsPerSecondOfTheDevServer() throws Exception {
    TemporalDevServer server = DevServers.start();
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(server.target()).build());
    WorkflowClient client = WorkflowClient.newInstance(stubs);
    WorkerFactory workers = WorkerFactory.newInstance(client);
    workers
        .newWorker(
            "ceiling", WorkerOptions.newBuilder().setMaxConcurrentWorkflowTaskPollers(8).build())
        .registerWorkflowImplementationTypes(NothingImpl.class);
    workers.start();
    ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
    try {
      run(client, callers, WARMUP);
      long[] before = {cpuTicks(server.pid()), cpuTicks(ProcessHandle.current().pid()), total()};
      long start = System.nanoTime();
      run(client, callers, RUNS);
      double seconds = (System.nanoTime() - start) / 1e9;
      long server0 = cpuTicks(server.pid()) - before[0];
      long client0 = cpuTicks(ProcessHandle.current().pid()) - before[1];
      long machine = total() - before[2];
      System.out.printf(
          "RESULT dev server ceiling: %d workflows in %.1f s = %.1f/s from %d callers;"
              + " CPU per workflow: dev server %.2f ms, this JVM (client and worker) %.2f ms;"
              + " CPU shares of %d cores: dev server %.0f%%, this JVM %.0f%%%n",
          RUNS,
          seconds,
          RUNS / seconds,
          CALLERS,
          server0 * 1000.0 / ticksPerSecond() / RUNS,
          client0 * 1000.0 / ticksPerSecond() / RUNS,
          Runtime.getRuntime().availableProcessors(),
          100.0 * server0 / machine,
          100.0 * client0 / machine);
    } finally {
      callers.shutdownNow();
      workers.shutdownNow();
      stubs.shutdownNow();
      server.close();
    }
  }

  private static void run(WorkflowClient client, ExecutorService callers, int n) throws Exception {
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> all = new ArrayList<>();
    for (int c = 0; c < CALLERS; c++) {
      all.add(
          callers.submit(
              () -> {
                while (next.getAndIncrement() < n) {
                  String id = UUID.randomUUID().toString();
                  Nothing workflow =
                      client.newWorkflowStub(
                          Nothing.class,
                          WorkflowOptions.newBuilder()
                              .setTaskQueue("ceiling")
                              .setWorkflowId("ceiling-" + id)
                              .setDisableEagerExecution(false)
                              .build());
                  assertThat(workflow.run(id)).isEqualTo(id);
                }
                return null;
              }));
    }
    for (Future<?> caller : all) {
      caller.get(10, TimeUnit.MINUTES);
    }
  }

  /** user + system ticks of a process, from /proc. */
  private static long cpuTicks(long pid) throws Exception {
    String[] fields =
        Files.readString(Path.of("/proc/" + pid + "/stat")).split("\\) ")[1].split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /** All cores' ticks, busy or not, from /proc/stat. */
  private static long total() throws Exception {
    String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
    long sum = 0;
    for (int i = 1; i <= 8; i++) {
      sum += Long.parseLong(cpu[i]);
    }
    return sum;
  }

  private static long ticksPerSecond() {
    return 100; // USER_HZ on Linux
  }
}
