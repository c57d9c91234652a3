package com.crmflow.api.contact;

import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

public record Contact(
    UUID id,
    String email,
    String firstName,
    String lastName,
    String phone,
    String mobilePhone,
    String company,
    String title,
    String department,
    String industry,
    String leadSource,
    String leadStatus,
    String lifecycleStage,
    String addressCity,
    String addressState,
    String addressCountry,
    String timezone,
    String preferredContactMethod,
    boolean doNotCall,
    boolean doNotEmail,
    boolean doNotSms,
    UUID accountId,
    Map<String, Object> customFields,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt) {

  /** "First Last", or whichever of the two is present, or null. */
  public String fullName() {
    String name =
        ((firstName == null ? "" : firstName) + " " + (lastName == null ? "" : lastName)).trim();
    return name.isEmpty() ? null : name;
  }

  /**
   * The contact as event data and as {@code {{contact.*}}} template variables: the spec's
   * contact.created fields (contact_id, email, name, company) and every other field.
   */
  public Map<String, Object> asEventData() {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("contact_id", id.toString());
    data.put("email", email);
    data.put("name", fullName());
    data.putAll(fieldValues());
    return data;
  }

  /** The stored fields only (no derived name): what an update can change. */
  public Map<String, Object> fieldValues() {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("email", email);
    data.put("company", company);
    data.put("first_name", firstName);
    data.put("last_name", lastName);
    data.put("phone", phone);
    data.put("mobile_phone", mobilePhone);
    data.put("title", title);
    data.put("department", department);
    data.put("industry", industry);
    data.put("lead_source", leadSource);
    data.put("lead_status", leadStatus);
    data.put("lifecycle_stage", lifecycleStage);
    data.put("address_city", addressCity);
    data.put("address_state", addressState);
    data.put("address_country", addressCountry);
    data.put("timezone", timezone);
    data.put("preferred_contact_method", preferredContactMethod);
    data.put("do_not_call", doNotCall);
    data.put("do_not_email", doNotEmail);
    data.put("do_not_sms", doNotSms);
    data.put("account_id", accountId == null ? null : accountId.toString());
    data.put("custom_fields", customFields);
    return data;
  }
}
