package com.crmflow.api.contact;

import com.crmflow.api.account.Account;
import com.crmflow.api.account.AccountRepository;
import com.crmflow.api.customfield.CustomFieldValues;
import com.crmflow.api.event.Changes;
import com.crmflow.api.event.EventOutbox;
import com.crmflow.api.opportunity.Opportunity;
import com.crmflow.api.opportunity.OpportunityRepository;
import com.crmflow.api.opportunity.OpportunitySchema;
import com.crmflow.api.recordfield.RecordReferences;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.event.EventNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;

/** Creates (upserts by email) and updates contacts, emitting their events in the same commit. */
@Service
public class ContactService {

  private static final Set<String> UPSERT_EXTRAS =
      Set.of("custom_fields", "create_account", "create_opportunity");
  private static final Set<String> PATCH_EXTRAS = Set.of("custom_fields");

  private final ContactRepository contacts;
  private final AccountRepository accounts;
  private final OpportunityRepository opportunities;
  private final CustomFieldValues customFields;
  private final EventOutbox events;
  private final RecordReferences references;

  ContactService(
      ContactRepository contacts,
      AccountRepository accounts,
      OpportunityRepository opportunities,
      CustomFieldValues customFields,
      EventOutbox events,
      RecordReferences references) {
    this.references = references;
    this.contacts = contacts;
    this.accounts = accounts;
    this.opportunities = opportunities;
    this.customFields = customFields;
    this.events = events;
  }

  /** The outcome of POST /contacts. */
  public record UpsertResult(
      Contact contact, Account account, Opportunity opportunity, boolean created) {}

  @Transactional
  public UpsertResult upsert(UUID tenantId, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = ContactSchema.SCHEMA.validate(body, true, UPSERT_EXTRAS, problems);
    boolean createAccount = readCreateAccount(body, problems);
    Map<String, Object> opportunityFields = readCreateOpportunity(body, problems);
    if (createAccount && fields.get("company") == null) {
      problems.add(new FieldProblem("company", "is required when create_account is true"));
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    String email = (String) fields.get("email");
    Optional<Contact> existing = contacts.lockByEmail(tenantId, email);
    Map<String, Object> custom =
        customFields.validate(
            tenantId, "contact", body.get("custom_fields"), existing.isEmpty(), problems);
    Map<String, Object> opportunityCustom =
        opportunityFields == null ? null : opportunityCustomFields(tenantId, body, problems);
    if (createAccount && !accounts.existsByName(tenantId, (String) fields.get("company"))) {
      refuseIfAccountsNeedCustomFields(tenantId, problems);
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    references.requireExisting(tenantId, fields);

    Account account =
        createAccount
            ? accounts.findOrCreateByName(tenantId, (String) fields.get("company"))
            : null;
    if (account != null && !fields.containsKey("account_id")) {
      fields.put("account_id", account.id());
    }

    Contact contact = null;
    boolean created = false;
    if (existing.isEmpty()) {
      Optional<Contact> inserted = contacts.insertIfAbsent(tenantId, fields, custom);
      if (inserted.isPresent()) {
        contact = inserted.get();
        created = true;
        events.emit(tenantId, EventNames.CONTACT_CREATED, contact.asEventData());
      } else {
        // a concurrent request created this email first: this request becomes its update
        existing = contacts.lockByEmail(tenantId, email);
      }
    }
    if (!created) {
      contact = applyUpdate(tenantId, existing.orElseThrow(), fields, custom);
    }

    Opportunity opportunity = null;
    if (opportunityFields != null) {
      opportunityFields.put("contact_id", contact.id());
      if (contact.accountId() != null) {
        opportunityFields.put("account_id", contact.accountId());
      }
      opportunity = opportunities.insert(tenantId, opportunityFields, opportunityCustom);
      events.emit(tenantId, EventNames.OPPORTUNITY_CREATED, opportunity.asEventData());
    }
    return new UpsertResult(contact, account, opportunity, created);
  }

  @Transactional
  public Contact patch(UUID tenantId, UUID id, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = ContactSchema.SCHEMA.validate(body, false, PATCH_EXTRAS, problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    Contact existing =
        contacts.lock(tenantId, id).orElseThrow(() -> ApiException.notFound("Contact", id));
    Map<String, Object> custom =
        customFields.validate(tenantId, "contact", body.get("custom_fields"), false, problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    references.requireExisting(tenantId, fields);
    return applyUpdate(tenantId, existing, fields, custom);
  }

  private Contact applyUpdate(
      UUID tenantId, Contact existing, Map<String, Object> fields, Map<String, Object> custom) {
    Contact updated;
    try {
      updated = contacts.update(tenantId, existing.id(), fields, custom);
    } catch (DuplicateKeyException e) {
      throw ApiException.conflict(
          "Another contact of this tenant already has the email " + fields.get("email") + ".");
    }
    Changes changes = Changes.between(existing.fieldValues(), updated.fieldValues());
    if (!changes.isEmpty()) {
      events.emit(tenantId, EventNames.CONTACT_UPDATED, changes.withRecord(updated.asEventData()));
    }
    return updated;
  }

  /**
   * The custom fields of the opportunity that create_opportunity makes, validated as POST
   * /opportunities validates them (its required ones included), problems named {@code
   * create_opportunity.custom_fields.<key>}.
   */
  private Map<String, Object> opportunityCustomFields(
      UUID tenantId, JsonNode body, List<FieldProblem> problems) {
    List<FieldProblem> nested = new ArrayList<>();
    Map<String, Object> values =
        customFields.validate(
            tenantId,
            "opportunity",
            body.get("create_opportunity").get("custom_fields"),
            true,
            nested);
    nested.forEach(
        p -> problems.add(new FieldProblem("create_opportunity." + p.field(), p.message())));
    return values;
  }

  /**
   * create_account makes an account from the company name alone: where the tenant's accounts have
   * required custom fields it cannot, and says which (an existing account is only linked).
   */
  private void refuseIfAccountsNeedCustomFields(UUID tenantId, List<FieldProblem> problems) {
    List<FieldProblem> missing = new ArrayList<>();
    customFields.validate(tenantId, "account", null, true, missing);
    if (!missing.isEmpty()) {
      problems.add(
          new FieldProblem(
              "create_account",
              "would create an account without its required custom fields ("
                  + missing.stream()
                      .map(p -> p.field().substring("custom_fields.".length()))
                      .collect(java.util.stream.Collectors.joining(", "))
                  + "): create the account with POST /api/v1/accounts first, then this contact"
                  + " links to it by its name"));
    }
  }

  private static boolean readCreateAccount(JsonNode body, List<FieldProblem> problems) {
    JsonNode node = body.get("create_account");
    if (node == null || node.isNull()) {
      return false;
    }
    if (!node.isBoolean()) {
      problems.add(new FieldProblem("create_account", "must be true or false"));
      return false;
    }
    return node.booleanValue();
  }

  private static Map<String, Object> readCreateOpportunity(
      JsonNode body, List<FieldProblem> problems) {
    JsonNode node = body.get("create_opportunity");
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      problems.add(new FieldProblem("create_opportunity", "must be an object"));
      return null;
    }
    List<FieldProblem> nested = new ArrayList<>();
    Map<String, Object> fields =
        OpportunitySchema.NESTED_IN_CONTACT.validate(node, true, Set.of("custom_fields"), nested);
    nested.forEach(
        p -> problems.add(new FieldProblem("create_opportunity." + p.field(), p.message())));
    return new LinkedHashMap<>(fields);
  }
}
