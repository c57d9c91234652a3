package com.crmflow.api.recordwatch;

import com.crmflow.api.event.DispatchedEvent;
import com.crmflow.api.event.EventFilter;
import com.crmflow.api.event.OutboxEventHandler;
import com.crmflow.workflow.event.EventNames;
import com.crmflow.workflow.node.FlowGoal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Routes each dispatched event to the runs that watch its records ({@link RecordWatches}): in the
 * dispatch transaction, so an event is marked dispatched exactly when its deliveries are stored,
 * and in the outbox's order, under the dispatcher's lock. An event is about the records its data
 * names: {@code contact_id} (a contact) and {@code opportunity_id} (a deal). The deliveries are
 * signalled to the runs after the commit ({@link RecordEventDeliveries}); one that does not arrive
 * then is signalled by the next round. A run's goal ({@link FlowGoal}) is routed the events about
 * its contact that leave the contact meeting the goal: the contact as stored when the event is
 * dispatched, so an event behind a later change is judged by the later state.
 */
@Component
class RecordEventRouter implements OutboxEventHandler {

  private final RecordWatches watches;
  private final RecordEventDeliveries deliveries;
  private final RecordGoals goals;

  RecordEventRouter(RecordWatches watches, RecordEventDeliveries deliveries, RecordGoals goals) {
    this.watches = watches;
    this.deliveries = deliveries;
    this.goals = goals;
  }

  @Override
  public List<Runnable> dispatch(List<DispatchedEvent> events) {
    List<UUID> tenants = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<List<RecordWatches.RecordRef>> records = new ArrayList<>();
    for (DispatchedEvent event : events) {
      tenants.add(event.tenantId());
      names.add(event.event());
      records.add(recordsOf(event));
    }
    Set<UUID> routedTo = new LinkedHashSet<>();
    // each contact a goal watches is read once per batch, as it is once the batch's changes are in
    Map<String, Optional<Map<String, Object>>> contacts = new HashMap<>();
    for (RecordWatches.Watching watch : watches.watching(tenants, names, records)) {
      DispatchedEvent event = events.get(watch.eventIndex());
      boolean matches =
          watch.ofGoal()
              ? contacts
                  .computeIfAbsent(
                      watch.tenantId() + "/" + watch.recordId(),
                      key -> goals.contact(watch.tenantId(), watch.recordId()))
                  .map(contact -> FlowGoal.holds(watch.goal(), contact))
                  .orElse(false)
              : EventFilter.matches(watch.filterField(), watch.filterValue(), event.data());
      if (matches && watches.route(watch, event.id(), event.eventId(), event.envelope())) {
        routedTo.add(watch.runId());
      }
    }
    return routedTo.isEmpty() ? List.of() : List.of(() -> deliveries.deliverSoon(routedTo));
  }

  /** The records the event's data names. */
  static List<RecordWatches.RecordRef> recordsOf(DispatchedEvent event) {
    List<RecordWatches.RecordRef> refs = new ArrayList<>(2);
    if (event.data().get("contact_id") instanceof String contact && !contact.isBlank()) {
      refs.add(new RecordWatches.RecordRef(EventNames.CONTACT, contact));
    }
    if (event.data().get("opportunity_id") instanceof String deal && !deal.isBlank()) {
      refs.add(new RecordWatches.RecordRef(EventNames.OPPORTUNITY, deal));
    }
    return refs;
  }
}
