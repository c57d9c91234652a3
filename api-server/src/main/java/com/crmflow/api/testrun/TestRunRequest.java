package com.crmflow.api.testrun;

import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * The body of a test run.
 *
 * @param contactId the contact the run is for (its {@code {{contact.*}}} and the trigger payload's
 *     {@code contact_id})
 * @param payload the trigger's sample payload, or null: an empty one
 * @param nodeId the node to run alone, or null: the whole flow from its trigger
 */
record TestRunRequest(
    @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "the contact to run for")
        UUID contactId,
    @Schema(
            description =
                "the trigger's sample payload ({{trigger.*}}); its contact_id is the contact's",
            nullable = true)
        JsonNode payload,
    @Schema(
            description =
                "a node of the flow's latest canvas to run alone, with the payload and contact;"
                    + " without it the whole flow runs from its trigger",
            nullable = true)
        String nodeId) {

  private static final Set<String> FIELDS = Set.of("contact_id", "payload", "node_id");

  /** The body read with its shape checked: 400 naming each field that is wrong. */
  static TestRunRequest read(JsonNode body) {
    JsonBodies.requireObject(body);
    JsonBodies.refuseUnstorable(body);
    List<FieldProblem> problems = new ArrayList<>();
    body.propertyNames()
        .forEach(
            name -> {
              if (!FIELDS.contains(name)) {
                problems.add(new FieldProblem(name, "is not a field of a test run"));
              }
            });
    UUID contactId = null;
    JsonNode contact = body.get("contact_id");
    if (contact == null || contact.isNull()) {
      problems.add(new FieldProblem("contact_id", "is required"));
    } else {
      try {
        contactId = contact.isString() ? UUID.fromString(contact.asString()) : null;
      } catch (IllegalArgumentException notAUuid) {
        contactId = null;
      }
      if (contactId == null) {
        problems.add(new FieldProblem("contact_id", "must be a UUID"));
      }
    }
    JsonNode payload = body.get("payload");
    if (payload != null && !payload.isNull() && !payload.isObject()) {
      problems.add(new FieldProblem("payload", "must be a JSON object"));
    }
    JsonNode node = body.get("node_id");
    String nodeId = null;
    if (node != null && !node.isNull()) {
      if (!node.isString() || node.asString().isBlank()) {
        problems.add(new FieldProblem("node_id", "must be the id of a node of the flow"));
      } else {
        nodeId = node.asString();
      }
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    return new TestRunRequest(
        contactId, payload == null || payload.isNull() ? null : payload, nodeId);
  }
}
