package com.crmflow.api.recordwatch;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.action.RecordWatch;
import com.crmflow.workflow.node.FlowGoal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The index from a record to the runs waiting for its events ({@code record_watch}), and the events
 * routed to them ({@code record_event_delivery}). A run's node enters a watch when it starts
 * waiting and takes it out when it stops; a run whose canvas version has a goal watches its contact
 * from its start to its end (watcher {@link FlowGoal#WATCHER}, kept with the run's row by the
 * database, V57); the {@link RecordEventRouter} matches each dispatched event against it and stores
 * a delivery per watching run, which {@link RecordEventDeliveries} signals to the run's workflow.
 * All of it is rows in PostgreSQL, so it holds across restarts of any process, and a watch is keyed
 * by run and watcher, so entering it again (a retried activity, a resumed run) changes nothing but
 * where it points.
 *
 * <p>Every statement that takes several of a run's deliveries takes them in the deliverer's order
 * ({@link #pending}), as the run's end does (V63): the deliverer marks them one by one in one
 * transaction, and the signal of the first may make the run leave a watch or end, which then waits
 * for the deliverer instead of deadlocking with it.
 */
@Repository
public class RecordWatches {

  private final JdbcClient jdbc;
  private final JsonColumns json;

  RecordWatches(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  /** Enters the watch, or points the run's watch of that watcher to it. */
  public void enter(RecordWatch watch) {
    jdbc.sql(
            """
            insert into record_watch (run_id, watcher, tenant_id, record_type, record_id, event,
                                      filter_field, filter_value, workflow_id)
            values (:runId, :watcher, :tenantId, :recordType, :recordId, :event, :filterField,
                    :filterValue, :workflowId)
            on conflict (run_id, watcher) do update set
                record_type = excluded.record_type, record_id = excluded.record_id,
                event = excluded.event, filter_field = excluded.filter_field,
                filter_value = excluded.filter_value, workflow_id = excluded.workflow_id
            """)
        .param("runId", UUID.fromString(watch.runId()))
        .param("watcher", watch.watcher())
        .param("tenantId", UUID.fromString(watch.tenantId()))
        .param("recordType", watch.recordType())
        .param("recordId", watch.recordId())
        .param("event", watch.event())
        .param("filterField", watch.filterField())
        .param("filterValue", watch.filterValue())
        .param("workflowId", watch.workflowId())
        .update();
  }

  /** Takes the watch out, with the events routed to it. */
  public void leave(UUID runId, String watcher) {
    jdbc.sql("delete from record_watch where run_id = :runId and watcher = :watcher")
        .param("runId", runId)
        .param("watcher", watcher)
        .update();
    jdbc.sql(
            """
            delete from record_event_delivery d
            using (select event_id from record_event_delivery
                   where run_id = :runId and watcher = :watcher
                   order by outbox_id, event_id
                   for update) in_order
            where d.run_id = :runId and d.watcher = :watcher and d.event_id = in_order.event_id
            """)
        .param("runId", runId)
        .param("watcher", watcher)
        .update();
  }

  /** Takes out every watch of the run (it ended), and the deliveries still on their way. */
  void leaveAll(UUID runId) {
    jdbc.sql("delete from record_watch where run_id = :runId").param("runId", runId).update();
    jdbc.sql(
            """
            delete from record_event_delivery d
            using (select watcher, event_id from record_event_delivery
                   where run_id = :runId and delivered_at is null
                   order by outbox_id, watcher, event_id
                   for update) in_order
            where d.run_id = :runId and d.watcher = in_order.watcher
              and d.event_id = in_order.event_id
            """)
        .param("runId", runId)
        .update();
  }

  /**
   * The events routed to the watch so far, in the outbox's order, each marked delivered: the caller
   * hands them to the run.
   */
  List<RecordEvent> routedTo(UUID runId, String watcher) {
    return jdbc
        .sql(
            """
            update record_event_delivery d set delivered_at = coalesce(d.delivered_at, now())
            from (select event_id from record_event_delivery
                  where run_id = :runId and watcher = :watcher
                  order by outbox_id, event_id
                  for update) in_order
            where d.run_id = :runId and d.watcher = :watcher and d.event_id = in_order.event_id
            returning d.run_id, d.watcher, d.outbox_id, d.event_id, d.envelope::text as envelope
            """)
        .param("runId", runId)
        .param("watcher", watcher)
        .query(
            (rs, row) ->
                new RecordEvent(
                    rs.getString("run_id"),
                    rs.getString("watcher"),
                    rs.getLong("outbox_id"),
                    rs.getString("event_id"),
                    json.readMap(rs.getString("envelope"))))
        .list()
        .stream()
        .sorted(java.util.Comparator.comparingLong(RecordEvent::seq))
        .toList();
  }

  /** A record an event is about: its type and id. */
  record RecordRef(String type, String id) {}

  /** A watch an event matched by its record and name, before its filter is applied. */
  record Watching(
      int eventIndex,
      UUID runId,
      String watcher,
      String filterField,
      String filterValue,
      String workflowId,
      UUID tenantId,
      String recordId,
      Map<String, Object> goal) {

    /** A run's goal watches its contact ({@link FlowGoal#WATCHER}), not a node. */
    boolean ofGoal() {
      return FlowGoal.WATCHER.equals(watcher);
    }
  }

  /**
   * The watches of running runs on these events' records, for the event each waits for (or any):
   * one statement for a batch. {@code records} is parallel to the events: each event's records. A
   * goal's watch comes with the goal of the version the run runs now (none: it is left out).
   */
  List<Watching> watching(List<UUID> tenants, List<String> events, List<List<RecordRef>> records) {
    int size = 0;
    for (List<RecordRef> refs : records) {
      size += refs.size();
    }
    if (size == 0) {
      return List.of();
    }
    Integer[] index = new Integer[size];
    UUID[] tenantIds = new UUID[size];
    String[] names = new String[size];
    String[] types = new String[size];
    String[] ids = new String[size];
    int at = 0;
    for (int i = 0; i < records.size(); i++) {
      for (RecordRef ref : records.get(i)) {
        index[at] = i;
        tenantIds[at] = tenants.get(i);
        names[at] = events.get(i);
        types[at] = ref.type();
        ids[at] = ref.id();
        at++;
      }
    }
    return jdbc.sql(
            """
            select e.i, w.run_id, w.watcher, w.filter_field, w.filter_value, w.workflow_id,
                   w.tenant_id, w.record_id, v.goal::text as goal
            from unnest(cast(:index as int[]), cast(:tenants as uuid[]), cast(:events as text[]),
                        cast(:types as text[]), cast(:ids as text[]))
                 as e(i, tenant_id, event, record_type, record_id)
            join record_watch w
              on w.tenant_id = e.tenant_id and w.record_type = e.record_type
             and w.record_id = e.record_id and (w.event is null or w.event = e.event)
            join automation_run r on r.id = w.run_id and r.status = 'running'
            left join canvas_version v
              on w.watcher = :goalWatcher and v.tenant_id = r.tenant_id
             and v.sequence_id = r.sequence_id and v.version = r.canvas_version
            where w.watcher <> :goalWatcher or v.goal is not null
            order by e.i, w.run_id, w.watcher
            """)
        .param("index", index)
        .param("tenants", tenantIds)
        .param("events", names)
        .param("types", types)
        .param("ids", ids)
        .param("goalWatcher", FlowGoal.WATCHER)
        .query(
            (rs, row) ->
                new Watching(
                    rs.getInt("i"),
                    rs.getObject("run_id", UUID.class),
                    rs.getString("watcher"),
                    rs.getString("filter_field"),
                    rs.getString("filter_value"),
                    rs.getString("workflow_id"),
                    rs.getObject("tenant_id", UUID.class),
                    rs.getString("record_id"),
                    rs.getString("goal") == null ? null : json.readMap(rs.getString("goal"))))
        .list();
  }

  /** Stores the event's delivery to the watch; false when it was stored before. */
  boolean route(Watching watch, long outboxId, UUID eventId, Map<String, Object> envelope) {
    return jdbc.sql(
                """
                insert into record_event_delivery (run_id, watcher, event_id, outbox_id,
                                                   envelope, workflow_id)
                values (:runId, :watcher, :eventId, :outboxId, :envelope::jsonb, :workflowId)
                on conflict do nothing
                """)
            .param("runId", watch.runId())
            .param("watcher", watch.watcher())
            .param("eventId", eventId)
            .param("outboxId", outboxId)
            .param("envelope", json.write(envelope))
            .param("workflowId", watch.workflowId())
            .update()
        == 1;
  }

  /** An event on its way to a run's workflow. */
  record Pending(String workflowId, RecordEvent event) {}

  /**
   * The run's deliveries not yet delivered, in the outbox's order (a goal's and a node's delivery
   * of one event in the watchers' order): the order in which every statement takes them.
   */
  List<Pending> pending(UUID runId) {
    return jdbc.sql(
            """
            select run_id, watcher, outbox_id, event_id, envelope::text as envelope, workflow_id
            from record_event_delivery
            where run_id = :runId and delivered_at is null
            order by outbox_id, watcher, event_id
            """)
        .param("runId", runId)
        .query(
            (rs, row) ->
                new Pending(
                    rs.getString("workflow_id"),
                    new RecordEvent(
                        rs.getString("run_id"),
                        rs.getString("watcher"),
                        rs.getLong("outbox_id"),
                        rs.getString("event_id"),
                        json.readMap(rs.getString("envelope")))))
        .list();
  }

  /** The runs with deliveries stored longer than {@code olderThanMillis} ago and not delivered. */
  List<UUID> runsWithPending(long olderThanMillis, int limit) {
    return jdbc.sql(
            """
            select run_id from record_event_delivery
            where delivered_at is null
              and created_at < now() - make_interval(secs => :age)
            group by run_id order by min(created_at) limit :limit
            """)
        .param("age", olderThanMillis / 1000.0)
        .param("limit", limit)
        .query(UUID.class)
        .list();
  }

  void delivered(RecordEvent event, String note) {
    jdbc.sql(
            """
            update record_event_delivery set delivered_at = now(), last_error = :note
            where run_id = :runId and watcher = :watcher and event_id = :eventId
            """)
        .param("runId", UUID.fromString(event.runId()))
        .param("watcher", event.watcher())
        .param("eventId", UUID.fromString(event.eventId()))
        .param("note", note)
        .update();
  }

  /** A delivery that failed for now: counted, and tried again by the next round. */
  void failed(RecordEvent event, String error) {
    jdbc.sql(
            """
            update record_event_delivery set attempts = attempts + 1, last_error = :error
            where run_id = :runId and watcher = :watcher and event_id = :eventId
            """)
        .param("runId", UUID.fromString(event.runId()))
        .param("watcher", event.watcher())
        .param("eventId", UUID.fromString(event.eventId()))
        .param("error", error)
        .update();
  }

  /** Holds the run's deliveries until the transaction ends: one deliverer at a time per run. */
  void lockDeliveries(UUID runId) {
    jdbc.sql("select 1 from pg_advisory_xact_lock(hashtextextended(:key, 0))")
        .param("key", "record-event-delivery:" + runId)
        .query(Integer.class)
        .single();
  }
}
