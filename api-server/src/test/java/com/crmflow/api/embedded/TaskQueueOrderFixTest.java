package com.crmflow.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.api.common.v1.WorkflowType;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.PollWorkflowTaskQueueRequest;
import io.temporal.api.workflowservice.v1.StartWorkflowExecutionRequest;
import io.temporal.internal.testservice.InProcessGRPCServer;
import io.temporal.internal.testservice.TestServicesStarter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The embedded server hands out a task queue's backlog in arrival order (the test server's own
 * order is its heap's), and the fix still finds the internals it relies on.
 */
class TaskQueueOrderFixTest {

  @Test
  void workflowTasksNoPollerWaitedForAreHandedOutFirstInFirstOut() {
    try (TestServicesStarter starter = new TestServicesStarter(true, 0)) {
      assertThat(TaskQueueOrderFix.apply(starter)).isNull();
      InProcessGRPCServer server = new InProcessGRPCServer(starter.getServices());
      WorkflowServiceStubs stubs =
          WorkflowServiceStubs.newServiceStubs(
              WorkflowServiceStubsOptions.newBuilder().setChannel(server.getChannel()).build());
      try {
        TaskQueue queue = TaskQueue.newBuilder().setName("in-order").build();
        List<String> started =
            IntStream.range(0, 40).mapToObj(i -> "wf-" + i + "-" + UUID.randomUUID()).toList();
        for (String id : started) {
          stubs
              .blockingStub()
              .startWorkflowExecution(
                  StartWorkflowExecutionRequest.newBuilder()
                      .setNamespace("default")
                      .setWorkflowId(id)
                      .setRequestId(UUID.randomUUID().toString())
                      .setWorkflowType(WorkflowType.newBuilder().setName("anything"))
                      .setTaskQueue(queue)
                      .build());
        }
        List<String> handedOut = new ArrayList<>();
        for (int i = 0; i < started.size(); i++) {
          handedOut.add(
              stubs
                  .blockingStub()
                  .pollWorkflowTaskQueue(
                      PollWorkflowTaskQueueRequest.newBuilder()
                          .setNamespace("default")
                          .setTaskQueue(queue)
                          .build())
                  .getWorkflowExecution()
                  .getWorkflowId());
        }
        assertThat(handedOut).containsExactlyElementsOf(started);
      } finally {
        stubs.shutdownNow();
        server.shutdownNow();
      }
    }
  }
}
