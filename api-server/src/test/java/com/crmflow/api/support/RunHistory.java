package com.crmflow.api.support;

import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What Temporal keeps of a run (and its UI shows), for tests that look for what must not be there.
 */
public final class RunHistory {

  private RunHistory() {}

  /** What Temporal says of the workflow now (its status, priority, search attributes, ...). */
  public static WorkflowExecutionInfo describe(WorkflowClient temporal, String workflowId) {
    return temporal
        .getWorkflowServiceStubs()
        .blockingStub()
        .describeWorkflowExecution(
            DescribeWorkflowExecutionRequest.newBuilder()
                .setNamespace(temporal.getOptions().getNamespace())
                .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                .build())
        .getWorkflowExecutionInfo();
  }

  /** When the event happened, as Temporal's history records it. */
  public static Instant timeOf(HistoryEvent event) {
    return Instant.ofEpochSecond(
        event.getEventTime().getSeconds(), event.getEventTime().getNanos());
  }

  /**
   * The payloads of the run's workflow history, as text: its input, its activities' inputs and its
   * markers (a local activity's arguments and result).
   */
  public static String payloads(WorkflowClient temporal, String runId) {
    StringBuilder payloads = new StringBuilder();
    for (HistoryEvent event : temporal.fetchHistory("run-" + runId).getEvents()) {
      List<Payload> inputs = new ArrayList<>();
      if (event.hasWorkflowExecutionStartedEventAttributes()) {
        inputs.addAll(
            event.getWorkflowExecutionStartedEventAttributes().getInput().getPayloadsList());
      }
      if (event.hasActivityTaskScheduledEventAttributes()) {
        inputs.addAll(event.getActivityTaskScheduledEventAttributes().getInput().getPayloadsList());
      }
      if (event.hasMarkerRecordedEventAttributes()) {
        event
            .getMarkerRecordedEventAttributes()
            .getDetailsMap()
            .values()
            .forEach(details -> inputs.addAll(details.getPayloadsList()));
      }
      inputs.forEach(p -> payloads.append(p.getData().toStringUtf8()));
    }
    return payloads.toString();
  }
}
