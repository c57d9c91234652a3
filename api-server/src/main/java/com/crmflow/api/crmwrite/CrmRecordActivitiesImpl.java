package com.crmflow.api.crmwrite;

import com.crmflow.api.account.AccountService;
import com.crmflow.api.contact.ContactService;
import com.crmflow.api.event.EventCause;
import com.crmflow.api.event.EventOutbox;
import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.nodeeffect.NodeEffectRepository;
import com.crmflow.api.note.NoteService;
import com.crmflow.api.opportunity.OpportunityService;
import com.crmflow.api.task.TaskService;
import com.crmflow.api.trigger.CrmEventTriggers;
import com.crmflow.api.trigger.RunCauses;
import com.crmflow.api.web.ApiException;
import com.crmflow.workflow.action.CrmRecordActivities;
import com.crmflow.workflow.action.CrmWrite;
import io.temporal.failure.ApplicationFailure;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * crm_update and create_record (task queue crm). Each write goes through the same service as the
 * REST API, so it is validated the same way (custom fields included) and emits the same events in
 * the same transaction. A refused write (invalid field, unknown record, other tenant's record)
 * fails the node without retries; database trouble is retried by Temporal.
 *
 * <p>The events a run's write emits carry their cause ({@link EventCause}: this run, its node, and
 * the chain of runs that led to it), and the automations they will not start because of it (a loop,
 * or a chain at its depth limit) are listed in the node's output as {@code
 * automations_not_started}, so the run's node log says why the write triggered nothing.
 */
@Component("crmRecordActivities")
class CrmRecordActivitiesImpl implements CrmRecordActivities {

  private final ContactService contacts;
  private final AccountService accounts;
  private final OpportunityService opportunities;
  private final NoteService notes;
  private final TaskService tasks;
  private final JsonColumns json;
  private final NodeEffectRepository effects;
  private final TransactionTemplate transaction;
  private final RunCauses causes;
  private final EventOutbox outbox;
  private final CrmEventTriggers triggers;

  CrmRecordActivitiesImpl(
      ContactService contacts,
      AccountService accounts,
      OpportunityService opportunities,
      NoteService notes,
      TaskService tasks,
      JsonColumns json,
      NodeEffectRepository effects,
      TransactionTemplate transaction,
      RunCauses causes,
      EventOutbox outbox,
      CrmEventTriggers triggers) {
    this.causes = causes;
    this.outbox = outbox;
    this.triggers = triggers;
    this.contacts = contacts;
    this.accounts = accounts;
    this.opportunities = opportunities;
    this.notes = notes;
    this.tasks = tasks;
    this.json = json;
    this.effects = effects;
    this.transaction = transaction;
  }

  @Override
  public Map<String, Object> update(CrmWrite write) {
    UUID tenant = UUID.fromString(write.tenantId());
    UUID id = recordId(write);
    JsonNode body = body(write);
    return caused(
        write,
        () ->
            result(
                write.entityType(),
                () ->
                    switch (write.entityType()) {
                      case "contact" -> contacts.patch(tenant, id, body);
                      case "account" -> accounts.patch(tenant, id, body);
                      case "opportunity" -> opportunities.patch(tenant, id, body);
                      default -> throw rejected("crm_update cannot update " + write.entityType());
                    }));
  }

  /**
   * Creates the record, once per (run, node): a node run again (its activity retried after the
   * write committed, or its run resumed after a restart) answers with the record it created the
   * first time. The record, its event and the note of it ({@link NodeEffectRepository}) commit
   * together.
   */
  @Override
  public Map<String, Object> create(CrmWrite write) {
    if (write.runId() == null || write.nodeId() == null) {
      return createRecord(write);
    }
    return transaction.execute(
        status ->
            effects.once(
                UUID.fromString(write.runId()),
                write.nodeId(),
                UUID.fromString(write.tenantId()),
                () -> caused(write, () -> createRecord(write))));
  }

  /**
   * The write, its events marked as caused by the writing run, and its output with the automations
   * those events will not start ({@code automations_not_started}) if there are any. Write and
   * decision commit together, one write of the same root after the other.
   */
  private Map<String, Object> caused(CrmWrite write, Supplier<Map<String, Object>> doWrite) {
    EventCause cause = causeOf(write);
    if (cause == null) {
      return doWrite.get();
    }
    UUID tenant = UUID.fromString(write.tenantId());
    return transaction.execute(
        status -> {
          triggers.lockRoot(tenant, cause);
          EventOutbox.CausedWrite<Map<String, Object>> written = outbox.causedBy(cause, doWrite);
          List<Map<String, Object>> notStarted = triggers.decide(written.emitted());
          if (notStarted.isEmpty()) {
            return written.result();
          }
          Map<String, Object> output = new LinkedHashMap<>(written.result());
          output.put("automations_not_started", notStarted);
          return output;
        });
  }

  /**
   * The cause of the events this node's write emits: its run, and the chain that led to the run
   * (the cause in its trigger payload, which the dispatcher or the public trigger put there). A
   * cause in a payload sent from outside (a webhook's body) can only hold back that run's own
   * events. Null for a write that names no run.
   */
  private EventCause causeOf(CrmWrite write) {
    if (write.runId() == null) {
      return null;
    }
    return causes
        .of(UUID.fromString(write.tenantId()), UUID.fromString(write.runId()), write.nodeId())
        .orElse(null);
  }

  private Map<String, Object> createRecord(CrmWrite write) {
    UUID tenant = UUID.fromString(write.tenantId());
    JsonNode body = body(write);
    return result(
        write.entityType(),
        () ->
            switch (write.entityType()) {
              // an upsert by email, as POST /api/v1/contacts
              case "contact" -> contacts.upsert(tenant, body).contact();
              case "account" -> accounts.create(tenant, body);
              case "opportunity" -> opportunities.create(tenant, body);
              case "note" -> notes.create(tenant, body);
              case "task" -> tasks.create(tenant, body);
              default -> throw rejected("create_record cannot create " + write.entityType());
            });
  }

  private Map<String, Object> result(String entityType, Supplier<Object> write) {
    Object record;
    try {
      record = write.get();
    } catch (ApiException refused) {
      throw rejected(describe(refused));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> fields = json.mapper().convertValue(record, Map.class);
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("entity_type", entityType);
    output.put("id", String.valueOf(fields.get("id")));
    output.put("record", fields);
    return output;
  }

  private JsonNode body(CrmWrite write) {
    return json.mapper().valueToTree(write.fields() == null ? Map.of() : write.fields());
  }

  private static UUID recordId(CrmWrite write) {
    try {
      return UUID.fromString(write.recordId().trim());
    } catch (IllegalArgumentException | NullPointerException e) {
      throw rejected(write.entityType() + " id \"" + write.recordId() + "\" is not a uuid");
    }
  }

  /** Each field's problem ("title: must be at most 255 characters; value: ..."), or the detail. */
  private static String describe(ApiException refused) {
    if (refused.fieldProblems().isEmpty()) {
      return refused.getMessage();
    }
    return refused.fieldProblems().stream()
        .map(p -> p.field() + ": " + p.message())
        .collect(Collectors.joining("; "));
  }

  private static ApplicationFailure rejected(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, REJECTED);
  }
}
