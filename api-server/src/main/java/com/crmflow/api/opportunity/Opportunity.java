package com.crmflow.api.opportunity;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

public record Opportunity(
    UUID id,
    String name,
    String stage,
    BigDecimal value,
    BigDecimal probability,
    LocalDate closeDate,
    String leadSource,
    String description,
    String nextStep,
    UUID contactId,
    UUID accountId,
    Map<String, Object> customFields,
    OffsetDateTime closedAt,
    String lostReason,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt) {

  /** The opportunity as event data and template variables. */
  public Map<String, Object> asEventData() {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("opportunity_id", id.toString());
    data.put("name", name);
    data.put("stage", stage);
    data.put("value", value);
    data.put("probability", probability);
    data.put("close_date", closeDate == null ? null : closeDate.toString());
    data.put("lead_source", leadSource);
    data.put("next_step", nextStep);
    data.put("contact_id", contactId == null ? null : contactId.toString());
    data.put("account_id", accountId == null ? null : accountId.toString());
    data.put("closed_at", closedAt == null ? null : closedAt.toString());
    data.put("lost_reason", lostReason);
    data.put("custom_fields", customFields);
    return data;
  }
}
