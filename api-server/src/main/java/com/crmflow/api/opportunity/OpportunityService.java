package com.crmflow.api.opportunity;

import com.crmflow.api.customfield.CustomFieldValues;
import com.crmflow.api.event.Changes;
import com.crmflow.api.event.EventOutbox;
import com.crmflow.api.recordfield.RecordReferences;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.event.EventNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;

/** Creates and updates opportunities, emitting opportunity.* events in the same commit. */
@Service
public class OpportunityService {

  private static final Set<String> EXTRAS = Set.of("custom_fields");

  private final OpportunityRepository opportunities;
  private final RecordReferences references;
  private final CustomFieldValues customFields;
  private final EventOutbox events;

  OpportunityService(
      OpportunityRepository opportunities,
      RecordReferences references,
      CustomFieldValues customFields,
      EventOutbox events) {
    this.opportunities = opportunities;
    this.references = references;
    this.customFields = customFields;
    this.events = events;
  }

  @Transactional
  public Opportunity create(UUID tenantId, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = OpportunitySchema.SCHEMA.validate(body, true, EXTRAS, problems);
    Map<String, Object> custom =
        customFields.validate(tenantId, "opportunity", body.get("custom_fields"), true, problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    references.requireExisting(tenantId, fields);
    Opportunity created = opportunities.insert(tenantId, fields, custom);
    events.emit(tenantId, EventNames.OPPORTUNITY_CREATED, created.asEventData());
    return created;
  }

  @Transactional
  public Opportunity patch(UUID tenantId, UUID id, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = OpportunitySchema.SCHEMA.validate(body, false, EXTRAS, problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    Opportunity existing =
        opportunities
            .lock(tenantId, id)
            .orElseThrow(() -> ApiException.notFound("Opportunity", id));
    Map<String, Object> custom =
        customFields.validate(tenantId, "opportunity", body.get("custom_fields"), false, problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    references.requireExisting(tenantId, fields);
    Opportunity updated = opportunities.update(tenantId, id, fields, custom);
    Changes changes = Changes.between(existing.asEventData(), updated.asEventData());
    if (!changes.isEmpty()) {
      events.emit(
          tenantId, EventNames.OPPORTUNITY_UPDATED, changes.withRecord(updated.asEventData()));
    }
    if (!Objects.equals(existing.stage(), updated.stage())) {
      Map<String, Object> data = new LinkedHashMap<>(updated.asEventData());
      data.put("old_stage", existing.stage());
      data.put("new_stage", updated.stage());
      events.emit(tenantId, EventNames.OPPORTUNITY_STAGE_CHANGED, data);
    }
    return updated;
  }
}
