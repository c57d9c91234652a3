package com.crmflow.api.embedded;

import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import io.temporal.internal.testservice.TestWorkflowService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded Temporal test server, reachable two ways: on a TCP port, for the {@code temporal}
 * CLI and anything outside this JVM, and in-process, for this JVM's own client and workers. The
 * in-process path hands the protobuf messages over as objects: no HTTP/2 framing, no encoding and
 * decoding on each side (Netty and protobuf encoding were about a tenth of the CPU under the
 * trigger benchmark).
 *
 * <p>This is what {@code TestServer.createPortBoundServer} builds, plus an in-process server on the
 * same services (as the SDK's {@code InProcessGRPCServer}, except that the short calls run in the
 * caller's thread: two thread hand-overs fewer for each start and each completed workflow task).
 * Time skipping is locked: in the running service a "wait 3 days" must really take three days.
 */
public final class EmbeddedTemporal implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedTemporal.class);

  /** Name of the singleton bean through which the context finds the in-process channel. */
  public static final String BEAN_NAME = "crmEmbeddedTemporal";

  /**
   * Calls that only change or read the server's state under its lock, never wait for something else
   * to happen: served in the calling thread. Everything else (the long polls above all) keeps
   * gRPC's executor, so a poll never blocks a thread that is not waiting for it anyway.
   */
  private static final Set<String> SERVED_IN_CALLER =
      Set.of(
          WorkflowServiceGrpc.getStartWorkflowExecutionMethod().getFullMethodName(),
          WorkflowServiceGrpc.getRespondWorkflowTaskCompletedMethod().getFullMethodName(),
          WorkflowServiceGrpc.getRespondWorkflowTaskFailedMethod().getFullMethodName(),
          WorkflowServiceGrpc.getRespondActivityTaskCompletedMethod().getFullMethodName(),
          WorkflowServiceGrpc.getRespondActivityTaskFailedMethod().getFullMethodName(),
          WorkflowServiceGrpc.getRespondActivityTaskCanceledMethod().getFullMethodName(),
          WorkflowServiceGrpc.getRecordActivityTaskHeartbeatMethod().getFullMethodName(),
          WorkflowServiceGrpc.getSignalWorkflowExecutionMethod().getFullMethodName(),
          WorkflowServiceGrpc.getRequestCancelWorkflowExecutionMethod().getFullMethodName(),
          WorkflowServiceGrpc.getTerminateWorkflowExecutionMethod().getFullMethodName(),
          WorkflowServiceGrpc.getDescribeWorkflowExecutionMethod().getFullMethodName(),
          WorkflowServiceGrpc.getGetSystemInfoMethod().getFullMethodName(),
          WorkflowServiceGrpc.getDescribeNamespaceMethod().getFullMethodName());

  private final TestServicesStarter services;
  private final Server portBound;
  private final Server inProcess;
  private final ManagedChannel channel;
  private final List<String> fixProblems;
  private final String target;
  private final ScheduledExecutorService retention;

  /** Null when closed workflows are kept for good (or the retention could not attach). */
  private final ClosedWorkflowRetention closedWorkflows;

  private EmbeddedTemporal(
      String target,
      TestServicesStarter services,
      Server portBound,
      Server inProcess,
      ManagedChannel channel,
      List<String> fixProblems,
      ScheduledExecutorService retention,
      ClosedWorkflowRetention closedWorkflows) {
    this.target = target;
    this.retention = retention;
    this.closedWorkflows = closedWorkflows;
    this.services = services;
    this.portBound = portBound;
    this.inProcess = inProcess;
    this.channel = channel;
    this.fixProblems = fixProblems;
  }

  /**
   * Starts the server on {@code port}. Workflows closed for longer than {@code keepClosed}, those
   * that completed longer than {@code keepCompleted} ago (never later than the others), and the
   * oldest closed ones beyond {@code keepClosedAtMost}, are removed (see {@link
   * ClosedWorkflowRetention}); a zero {@code keepClosed} keeps every workflow.
   */
  static EmbeddedTemporal start(
      int port, Duration keepClosed, Duration keepCompleted, int keepClosedAtMost) {
    TestServicesStarter services = new TestServicesStarter(true, 0);
    List<String> fixProblems = new ArrayList<>();
    ScheduledExecutorService retention = null;
    ClosedWorkflowRetention closedWorkflows = null;
    if (!keepClosed.isZero()) {
      try {
        closedWorkflows = ClosedWorkflowRetention.attach(services);
        retention =
            scheduleRetention(
                closedWorkflows, services, keepClosed, keepCompleted, keepClosedAtMost);
      } catch (ReflectiveOperationException | RuntimeException e) {
        closedWorkflows = null;
        fixProblems.add("closed workflows are kept in memory as long as the service runs: " + e);
      }
    }
    String timerFix = TimeSkippingLogFix.apply(services);
    if (timerFix != null) {
      fixProblems.add(
          "time-skipping log fix not applied, the server slows down over time: " + timerFix);
    }
    String cancelledTimersFix = CancelledTimersFix.apply(services);
    if (cancelledTimersFix != null) {
      fixProblems.add(
          "cancelled timers fix not applied, closed workflows stay in memory behind open ones: "
              + cancelledTimersFix);
    }
    String orderFix = TaskQueueOrderFix.apply(services);
    if (orderFix != null) {
      fixProblems.add("task queue order fix not applied, tasks may wait out of turn: " + orderFix);
    }
    ServerBuilder<?> builder =
        Grpc.newServerBuilderForPort(port, InsecureServerCredentials.create());
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    String inProcessName = InProcessServerBuilder.generateName();
    InProcessServerBuilder inProcessBuilder =
        InProcessServerBuilder.forName(inProcessName)
            .callExecutor(
                new ServerCallExecutorSupplier() {
                  @Override
                  public <Q, R> Executor getExecutor(ServerCall<Q, R> call, Metadata headers) {
                    return SERVED_IN_CALLER.contains(call.getMethodDescriptor().getFullMethodName())
                        ? MoreExecutors.directExecutor()
                        : null; // gRPC's executor
                  }
                });
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), inProcessBuilder);
    Server portBound;
    Server inProcess;
    try {
      portBound = builder.build().start();
      inProcess = inProcessBuilder.build().start();
    } catch (IOException e) {
      if (retention != null) {
        retention.shutdownNow();
      }
      services.close();
      throw new UncheckedIOException("could not bind the embedded Temporal to port " + port, e);
    }
    return new EmbeddedTemporal(
        "127.0.0.1:" + port,
        services,
        portBound,
        inProcess,
        InProcessChannelBuilder.forName(inProcessName).directExecutor().build(),
        List.copyOf(fixProblems),
        retention,
        closedWorkflows);
  }

  /**
   * Removes closed workflows past their time or beyond the count, checking every 10 s (or every
   * keepClosed or keepCompleted, if shorter, but at most ten times a second): a pass looks at every
   * workflow, a slice at a time under the server's locks, so it does not run more often than that.
   */
  private static ScheduledExecutorService scheduleRetention(
      ClosedWorkflowRetention closed,
      TestServicesStarter services,
      Duration keepClosed,
      Duration keepCompleted,
      int keepClosedAtMost) {
    TestWorkflowService server = services.getWorkflowService();
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "embedded-temporal-retention");
              thread.setDaemon(true);
              return thread;
            });
    long everyMillis =
        Math.max(100, Math.min(Math.min(keepClosed.toMillis(), keepCompleted.toMillis()), 10_000));
    timer.scheduleWithFixedDelay(
        () -> {
          try {
            Instant now = Instant.ofEpochMilli(server.currentTimeMillis());
            closed.removeClosed(
                now.minus(keepClosed),
                now.minus(keepCompleted),
                keepClosedAtMost,
                now.minus(closed.handOverAfter()));
          } catch (ReflectiveOperationException | RuntimeException e) {
            // a failure must not end the schedule: the next round tries again
            log.warn("Could not remove closed workflows from the embedded Temporal server", e);
          }
        },
        everyMillis,
        everyMillis,
        TimeUnit.MILLISECONDS);
    return timer;
  }

  /**
   * Hands each workflow that closed other than by completing to the listener, on the retention's
   * next pass once it has been closed for {@code after}, and in any case before the server forgets
   * it (see {@link ClosedWorkflowRetention}). Nothing to do when closed workflows are kept for
   * good.
   */
  public void onUnfinishedClosed(UnfinishedWorkflows listener, Duration after) {
    if (closedWorkflows != null) {
      closedWorkflows.onUnfinishedClosed(listener, after);
    }
  }

  /**
   * One pass of the retention, as its schedule makes every few seconds: hands the listener the
   * workflows that closed other than by completing before {@code handOverBefore}, and removes the
   * workflows closed before {@code cutoff} and the oldest beyond {@code keepAtMost}.
   *
   * @return how many it removed; 0 when closed workflows are kept for good
   */
  public int removeClosed(Instant cutoff, int keepAtMost, Instant handOverBefore)
      throws ReflectiveOperationException {
    return closedWorkflows == null
        ? 0
        : closedWorkflows.removeClosed(cutoff, cutoff, keepAtMost, handOverBefore);
  }

  /**
   * Hands the listener, now, every workflow that closed other than by completing and was not handed
   * over yet, however recently it closed; removes nothing. For the service's stop: the server then
   * forgets every workflow, and a restart resumes every run still running.
   */
  public void handOverUnfinishedNow() {
    try {
      removeClosed(Instant.EPOCH, Integer.MAX_VALUE, Instant.ofEpochMilli(Long.MAX_VALUE));
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.warn("Could not hand over the closed workflows of the embedded Temporal server", e);
    }
  }

  /** host:port of the TCP side. */
  public String target() {
    return target;
  }

  /** The channel for this JVM's WorkflowServiceStubs. */
  public ManagedChannel channel() {
    return channel;
  }

  /** Workarounds of test server bugs that could not be applied, and why (empty: all applied). */
  List<String> fixProblems() {
    return fixProblems;
  }

  @Override
  public void close() throws InterruptedException {
    if (retention != null) {
      retention.shutdownNow();
    }
    channel.shutdown();
    inProcess.shutdown();
    portBound.shutdown();
    channel.awaitTermination(5, TimeUnit.SECONDS);
    inProcess.awaitTermination(5, TimeUnit.SECONDS);
    portBound.awaitTermination(5, TimeUnit.SECONDS);
    services.close();
  }
}
