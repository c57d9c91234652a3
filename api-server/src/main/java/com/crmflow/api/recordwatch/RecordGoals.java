package com.crmflow.api.recordwatch;

import com.crmflow.api.contact.Contact;
import com.crmflow.api.contact.ContactRepository;
import com.crmflow.workflow.node.FlowGoal;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Judges flows' goals against contacts as they are stored now ({@link FlowGoal}): for the router,
 * on each event about a contact that a run's goal watches, and for a run before each node.
 */
@Component
class RecordGoals {

  private final ContactRepository contacts;

  RecordGoals(ContactRepository contacts) {
    this.contacts = contacts;
  }

  /** The tenant's contact as a run sees it ({@code {{contact.*}}}), or empty. */
  Optional<Map<String, Object>> contact(UUID tenantId, String contactId) {
    try {
      return contacts.find(tenantId, UUID.fromString(contactId)).map(Contact::asEventData);
    } catch (IllegalArgumentException notAUuid) {
      return Optional.empty();
    }
  }

  /** Whether the tenant's contact meets the goal now; false for a contact not the tenant's. */
  boolean holds(UUID tenantId, String contactId, Map<String, Object> goal) {
    return contact(tenantId, contactId).map(c -> FlowGoal.holds(goal, c)).orElse(false);
  }
}
