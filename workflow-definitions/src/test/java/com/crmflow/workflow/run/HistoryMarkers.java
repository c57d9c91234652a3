package com.crmflow.workflow.run;

import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;

/** The payloads of a history's markers (local activities, versions) as text. */
final class HistoryMarkers {

  private HistoryMarkers() {}

  static String text(WorkflowExecutionHistory history) {
    StringBuilder text = new StringBuilder();
    for (HistoryEvent event : history.getEvents()) {
      event
          .getMarkerRecordedEventAttributes()
          .getDetailsMap()
          .values()
          .forEach(
              payloads ->
                  payloads
                      .getPayloadsList()
                      .forEach(payload -> text.append(payload.getData().toStringUtf8())));
    }
    return text.toString();
  }
}
