package com.crmflow.api.event;

import java.util.List;

/**
 * Turns an outbox event into durable work (run rows, deliveries) inside the dispatch transaction,
 * so the event is marked dispatched exactly when its work is stored. What needs Temporal is
 * returned and done after the commit; if Temporal is down then, the stored work waits for its
 * reconciler.
 */
public interface OutboxEventHandler {

  List<Runnable> dispatch(DispatchedEvent event);
}
