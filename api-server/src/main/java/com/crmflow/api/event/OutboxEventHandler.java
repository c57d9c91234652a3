package com.crmflow.api.event;

import java.util.List;

/**
 * Turns an outbox event into durable work (run rows, deliveries) inside the dispatch transaction,
 * so the event is marked dispatched exactly when its work is stored. What needs Temporal is
 * returned and done after the commit; if Temporal is down then, the stored work waits for its
 * reconciler.
 */
public interface OutboxEventHandler {

  /**
   * The work of a batch of events, in their order. A batch of one tenant's events of one kind is
   * common (an import, a busy form), so a handler looks up what listens to each tenant and event
   * name once per batch, not once per event.
   */
  List<Runnable> dispatch(List<DispatchedEvent> events);
}
