package com.crmflow.api.nodetype;

import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeDescriptor;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The node types in the OpenAPI document, from their descriptors: the names a new node and a step
 * may have, and each type's config as a schema of its own ({@code <type>Config}, e.g. {@code
 * http_requestConfig}) with its fields' kinds, limits and required ones.
 */
@Configuration
class NodeTypeDocs {

  @Bean
  OpenApiCustomizer nodeTypeSchemas(NodeTypes types) {
    return openApi -> {
      Map<String, Schema> schemas = openApi.getComponents().getSchemas();
      if (schemas == null) {
        return;
      }
      enumerate(schemas.get("NewNode"), types.names());
      enumerate(schemas.get("StepInput"), types.stepTypes());
      for (NodeDescriptor descriptor : types.descriptors()) {
        openApi.getComponents().addSchemas(descriptor.name() + "Config", config(descriptor));
      }
    };
  }

  @SuppressWarnings("unchecked")
  private static void enumerate(Schema<?> body, List<String> names) {
    if (body == null || body.getProperties() == null) {
      return;
    }
    Schema<String> type = (Schema<String>) body.getProperties().get("type");
    if (type != null) {
      type.setEnum(new ArrayList<>(names));
    }
  }

  private static Schema<?> config(NodeDescriptor descriptor) {
    ObjectSchema schema = new ObjectSchema();
    schema.setDescription(
        "data.config of a " + descriptor.name() + " node: " + descriptor.description() + ".");
    List<String> required = new ArrayList<>();
    for (ConfigField field : descriptor.fields()) {
      schema.addProperty(field.key(), property(field));
      if (field.required()) {
        required.add(field.key());
      }
    }
    if (!required.isEmpty()) {
      schema.setRequired(required);
    }
    return schema;
  }

  /** A send window: {days, from, to, timezone}. */
  private static void window(Schema<Object> property) {
    property.setTypes(Set.of("object"));
    property.addProperty(
        "days",
        new Schema<>()
            .types(Set.of("array"))
            .items(
                new Schema<>()
                    .types(Set.of("integer"))
                    .minimum(BigDecimal.ONE)
                    .maximum(BigDecimal.valueOf(7)))
            .description("days of the week, 1 (Monday) to 7 (Sunday)"));
    property.addProperty(
        "from", new Schema<>().types(Set.of("string")).description("HH:mm, 24-hour, local time"));
    property.addProperty(
        "to",
        new Schema<>()
            .types(Set.of("string"))
            .description("HH:mm; not after from: the window runs past midnight"));
    property.addProperty(
        "timezone",
        new Schema<>()
            .types(Set.of("string"))
            .description(
                "contact (the contact's, else the flow's, else the tenant's) or an IANA zone"));
    property.setRequired(List.of("days", "from", "to", "timezone"));
    property.setAdditionalProperties(false);
  }

  private static Schema<?> property(ConfigField field) {
    Schema<Object> property = new Schema<>();
    switch (field.kind()) {
      case NUMBER -> property.setTypes(Set.of("number"));
      case BOOLEAN -> property.setTypes(Set.of("boolean"));
      case KEY_VALUE -> {
        property.setTypes(Set.of("object"));
        property.setAdditionalProperties(new Schema<>().types(Set.of("string")));
      }
      case JSON -> property.setTypes(Set.of("object"));
      case DAYS -> {
        property.setTypes(Set.of("array"));
        property.setItems(
            new Schema<>()
                .types(Set.of("integer"))
                .minimum(BigDecimal.ZERO)
                .maximum(BigDecimal.valueOf(6)));
      }
      case WINDOW -> window(property);
      case BRANCHES -> {
        property.setTypes(Set.of("array"));
        property.setItems(
            new Schema<>()
                .types(Set.of("object"))
                .addProperty("label", new Schema<>().types(Set.of("string")).maxLength(100))
                .addProperty(
                    "percent",
                    new Schema<>()
                        .types(Set.of("number"))
                        .exclusiveMinimumValue(BigDecimal.ZERO)
                        .maximum(BigDecimal.valueOf(100)))
                .required(List.of("label", "percent")));
        property.setMinItems(2);
        property.setMaxItems(20);
      }
      default -> property.setTypes(Set.of("string"));
    }
    if (!field.options().isEmpty()) {
      property.setEnum(new ArrayList<>(field.options()));
    }
    if (field.min() != null) {
      property.setMinimum(BigDecimal.valueOf(field.min()));
    }
    if (field.max() != null) {
      property.setMaximum(BigDecimal.valueOf(field.max()));
    }
    if (field.maxLength() != null) {
      property.setMaxLength(field.maxLength());
    }
    if (field.readOnly()) {
      property.setReadOnly(true);
    }
    List<String> notes = new ArrayList<>();
    notes.add(field.label());
    if (field.help() != null) {
      notes.add(field.help());
    }
    if (field.template()) {
      notes.add("supports template variables");
    }
    if (field.secret() != ConfigField.Secret.NONE) {
      notes.add("secret: stored sealed, shown as ********");
    }
    property.setDescription(String.join("; ", notes));
    return property;
  }
}
