package com.crmflow.api.config;

import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.oas.models.media.ObjectSchema;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;

/** The OpenAPI document served at /v3/api-docs (and the UI at /swagger-ui.html). */
@Configuration
@OpenAPIDefinition(
    info =
        @Info(
            title = "CRM automation service",
            version = "v1",
            description =
                "Contacts, accounts, opportunities, conversations, custom fields, sequences,"
                    + " signed webhooks and canvas automations run on Temporal."),
    security = @SecurityRequirement(name = "apiKey"))
@SecurityScheme(
    name = "apiKey",
    type = SecuritySchemeType.HTTP,
    scheme = "bearer",
    description = "An API key: Authorization: Bearer crm_...")
class OpenApiConfig {

  static {
    // Most endpoints read their body as a JSON tree (to tell a missing field from a null one and
    // to refuse unknown fields); springdoc described that as JsonNode's own bean properties
    // (array, empty, null, ...), which no client should send. A free-form object is honest.
    SpringDocUtils.getConfig()
        .replaceWithSchema(
            JsonNode.class,
            new ObjectSchema()
                .description("A JSON object with the fields this endpoint documents (README)."));
  }
}
