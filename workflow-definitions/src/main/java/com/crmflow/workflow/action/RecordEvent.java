package com.crmflow.workflow.action;

import java.util.Map;

/**
 * A CRM event about a run's record, routed to the run because one of its nodes watches that record
 * for it (a wait_until node): the signal {@code record_event} of the run's workflow, and what a
 * watch answers with ({@link RecordWatchActivities#watch}).
 *
 * @param runId the run it is routed to (a workflow id can pass to a later run of an enrollment: the
 *     run tells it apart)
 * @param watcher the node of the run that watches the record
 * @param seq the event's place in the outbox: events reach a watcher in this order
 * @param eventId the event's id: a watcher takes each event once, however often it is delivered
 * @param envelope the event as subscribers receive it: {@code {event, timestamp, tenant_id, data}}
 */
public record RecordEvent(
    String runId, String watcher, long seq, String eventId, Map<String, Object> envelope) {

  /** The event's name ({@code contact.updated}). */
  public String event() {
    return envelope == null ? null : String.valueOf(envelope.get("event"));
  }
}
