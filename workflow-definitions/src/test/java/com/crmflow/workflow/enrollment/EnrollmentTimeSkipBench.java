package com.crmflow.workflow.enrollment;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.WorkflowTestEnvironments;
import com.crmflow.workflow.action.EmailActivities;
import com.crmflow.workflow.action.EmailBookActivities;
import com.crmflow.workflow.action.EmailContext;
import com.crmflow.workflow.action.EmailMessage;
import com.crmflow.workflow.action.EmailReceipt;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInputBuilder;
import com.crmflow.workflow.contract.RunRecorderActivities;
import com.crmflow.workflow.run.Canvases;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerOptions;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * N enrollments of a 3-step sequence (email, 2 days, email, 2 days, email) run to completion on the
 * Temporal test server with time skipping, with in-memory activities: what the workflows and the
 * server cost, without PostgreSQL or HTTP. {@code -Dbench.enrollments=100000}.
 *
 * <p>{@code ./mvnw -pl workflow-definitions verify -Pbench -Dtest=EnrollmentTimeSkipBench}
 */
@Tag("bench")
class EnrollmentTimeSkipBench {

  private final AtomicInteger emails = new AtomicInteger();
  private final AtomicInteger ended = new AtomicInteger();

  private class Counting implements EmailActivities, EmailBookActivities, RunRecorderActivities {
    @Override
    public EmailReceipt send(EmailMessage message) {
      emails.incrementAndGet();
      return new EmailReceipt(EmailReceipt.SENT, message.messageId());
    }

    @Override
    public EmailContext context(String tenantId, String contactId, String templateId) {
      return new EmailContext(Map.of("email", contactId + "@example.com"), null, null, null);
    }

    @Override
    public void record(
        String tenantId, String runId, String nodeId, EmailMessage message, String status) {}

    @Override
    public void recordNode(String runId, NodeLogEntry entry) {}

    @Override
    public void recordNodes(String runId, List<NodeLogEntry> entries) {}

    @Override
    public void endRun(
        String runId,
        List<NodeLogEntry> entries,
        String status,
        String error,
        java.util.Map<String, Object> exit) {
      ended.incrementAndGet();
    }

    @Override
    public void finishRun(String runId, String status, String error) {
      ended.incrementAndGet();
    }

    @Override
    public void recordMove(
        String runId,
        List<NodeLogEntry> entries,
        com.crmflow.workflow.contract.RunMoveResult moved) {}
  }

  @Test
  void enrollmentsRunToCompletionUnderTimeSkipping() throws Exception {
    int n = Integer.getInteger("bench.enrollments", 100_000);
    Canvas canvas = Canvases.threeStepSequence();
    TestWorkflowEnvironment env = WorkflowTestEnvironments.newInstance();
    Counting activities = new Counting();
    WorkerOptions wide =
        WorkerOptions.newBuilder()
            .setMaxConcurrentWorkflowTaskExecutionSize(200)
            .setMaxConcurrentActivityExecutionSize(200)
            .build();
    env.getWorkerFactory()
        .newWorker(TaskQueues.AUTOMATION, wide)
        .registerWorkflowImplementationTypes(EnrollmentWorkflowImpl.class);
    env.getWorkerFactory()
        .newWorker(TaskQueues.CRM, wide)
        .registerActivitiesImplementations(activities);
    env.getWorkerFactory()
        .newWorker(TaskQueues.INTEGRATIONS, wide)
        .registerActivitiesImplementations(activities);
    env.start();

    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      EnrollmentWorkflow workflow =
          env.getWorkflowClient()
              .newWorkflowStub(
                  EnrollmentWorkflow.class,
                  WorkflowOptions.newBuilder()
                      .setTaskQueue(TaskQueues.AUTOMATION)
                      .setWorkflowId("enrollment-bench-" + i)
                      .build());
      WorkflowClient.start(
          workflow::run,
          RunInputBuilder.run("r" + i, canvas)
              .tenant("t", "s")
              .startAt("step1")
              .payload(Map.of("contact_id", "c" + i))
              .inlineChains(true)
              .build());
    }
    double startSeconds = (System.nanoTime() - t0) / 1e9;
    // time skips only while the environment is asked to wait: 5 days of test time covers both
    // 2-day delays; keep asking (a few minutes at a time) until every run has ended
    while (emails.get() < n) {
      Thread.sleep(100); // every first email out, so every workflow waits on its first timer
    }
    double waitingSeconds = (System.nanoTime() - t0) / 1e9;
    System.gc();
    long waitingHeapMb =
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024);
    System.out.printf(
        "RESULT all_waiting_after_s=%.1f heap_after_gc_mb=%d%n", waitingSeconds, waitingHeapMb);
    env.sleep(Duration.ofDays(5));
    while (ended.get() < n) {
      env.sleep(Duration.ofMinutes(5));
      System.out.printf(
          "progress: %.0f s, emails %d of %d, ended %d%n",
          (System.nanoTime() - t0) / 1e9, emails.get(), 3 * n, ended.get());
    }
    double totalSeconds = (System.nanoTime() - t0) / 1e9;
    System.gc();
    long heapMb =
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024);
    System.out.printf(
        "RESULT enrollments=%d started_in_s=%.1f starts_per_s=%.0f all_completed_in_s=%.1f"
            + " emails=%d heap_after_gc_mb=%d (test server keeps all %d histories)%n",
        n, startSeconds, n / startSeconds, totalSeconds, emails.get(), heapMb, n);
    assertThat(emails.get()).isEqualTo(3 * n);
    env.close();
  }
}
