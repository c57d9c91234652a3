package com.crmflow.api.sendwindow;

import com.crmflow.api.contact.Contact;
import com.crmflow.api.contact.ContactRepository;
import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.CanvasSnapshot;
import com.crmflow.api.tenant.TenantRepository;
import com.crmflow.workflow.action.SendWindowActivities;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * The zone of a send window in the contact's zone (task queue crm, or local on the embedded
 * defaults): the contact's {@code timezone} as it is now, else the flow's (its settings at the
 * run's canvas version), else the tenant's default.
 */
@Component("sendWindowActivities")
class SendWindowActivitiesImpl implements SendWindowActivities {

  private final ContactRepository contacts;
  private final CanvasRepository canvases;
  private final TenantRepository tenants;

  SendWindowActivitiesImpl(
      ContactRepository contacts, CanvasRepository canvases, TenantRepository tenants) {
    this.contacts = contacts;
    this.canvases = canvases;
    this.tenants = tenants;
  }

  @Override
  public WindowZone zone(String tenantId, String sequenceId, int canvasVersion, String contactId) {
    UUID tenant = UUID.fromString(tenantId);
    Optional<String> contacts = contactZone(tenant, contactId);
    if (contacts.isPresent()) {
      return new WindowZone(contacts.get(), "contact");
    }
    String flows =
        canvases
            .version(tenant, UUID.fromString(sequenceId), canvasVersion)
            .map(CanvasSnapshot::settings)
            .map(settings -> settings.timezone())
            .orElse(null);
    if (valid(flows)) {
      return new WindowZone(flows, "flow");
    }
    return new WindowZone(tenants.defaultTimezone(tenant), "tenant");
  }

  private Optional<String> contactZone(UUID tenantId, String contactId) {
    if (contactId == null) {
      return Optional.empty();
    }
    UUID id;
    try {
      id = UUID.fromString(contactId);
    } catch (IllegalArgumentException notAContact) {
      return Optional.empty();
    }
    return contacts
        .find(tenantId, id)
        .map(Contact::timezone)
        .filter(SendWindowActivitiesImpl::valid);
  }

  private static boolean valid(String zone) {
    if (zone == null || zone.isBlank()) {
      return false;
    }
    try {
      ZoneId.of(zone);
      return true;
    } catch (DateTimeException e) {
      return false;
    }
  }
}
