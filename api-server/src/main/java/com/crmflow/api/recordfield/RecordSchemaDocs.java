package com.crmflow.api.recordfield;

import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A record type's request body as an OpenAPI schema, built from the same field specs that validate
 * it, so the document cannot drift from what the API accepts.
 */
public final class RecordSchemaDocs {

  private RecordSchemaDocs() {}

  /**
   * @param creating whether this is the create body (required fields listed) or a partial update
   * @param extras body keys that are not standard fields (custom_fields, create_account, ...)
   */
  public static Schema<Object> body(
      RecordSchema record, boolean creating, Map<String, Schema<?>> extras) {
    Map<String, Schema> properties = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    for (FieldSpec spec : record.fields()) {
      properties.put(spec.name(), field(spec));
      if (creating && spec.requiredOnCreate()) {
        required.add(spec.name());
      }
    }
    properties.putAll(extras);
    Schema<Object> body = new Schema<>();
    body.setTypes(Set.of("object"));
    body.setProperties(properties);
    body.setAdditionalProperties(false);
    body.setDescription(
        creating
            ? "A new " + record.recordType() + ". Unknown keys are refused (400)."
            : "The fields of the "
                + record.recordType()
                + " to change; the others keep their values. An explicit null clears a field"
                + " that allows it. Unknown keys are refused (400).");
    if (!required.isEmpty()) {
      body.setRequired(required);
    }
    return body;
  }

  /** custom_fields: values keyed by field_key, each checked against its definition. */
  public static Schema<?> customFields(String objectType) {
    Schema<Object> values = new Schema<>();
    values.setTypes(Set.of("object"));
    values.setDescription(
        "Custom field values keyed by field_key (GET /api/v1/custom-fields?object_type="
            + objectType
            + "); each value is checked against its field's type.");
    return values;
  }

  static Schema<?> field(FieldSpec spec) {
    Schema<Object> field = new Schema<>();
    String type =
        switch (spec.kind()) {
          case BOOLEAN -> "boolean";
          case DECIMAL -> "number";
          case STRING_LIST -> "array";
          default -> "string";
        };
    Set<String> types = new LinkedHashSet<>(List.of(type));
    if (spec.nullable() && spec.kind() != FieldKind.BOOLEAN) {
      types.add("null");
    }
    field.setTypes(types);
    switch (spec.kind()) {
      case TEXT -> field.setMaxLength(spec.maxLength());
      case EMAIL -> field.setFormat("email");
      case TIMEZONE -> field.setDescription("an IANA time-zone name such as Europe/Berlin");
      case DATE -> field.setFormat("date");
      case TIMESTAMP -> field.setFormat("date-time");
      case UUID -> field.setFormat("uuid");
      case DECIMAL -> {
        field.setMinimum(spec.min());
        field.setMaximum(spec.max());
      }
      case ENUM -> {
        List<Object> allowed = new ArrayList<>(spec.allowed());
        if (types.contains("null")) {
          allowed.add(null);
        }
        field.setEnum(allowed);
      }
      case STRING_LIST -> {
        Schema<Object> item = new Schema<>();
        item.setTypes(Set.of("string"));
        item.setMaxLength(spec.maxLength());
        field.setItems(item);
        field.setMaxItems(spec.max() == null ? null : spec.max().intValue());
      }
      case BOOLEAN -> {}
    }
    return field;
  }
}
