package com.crmflow.api.config;

import com.crmflow.api.access.Caller;
import com.crmflow.api.account.AccountSchema;
import com.crmflow.api.contact.ContactSchema;
import com.crmflow.api.conversation.ConversationSchema;
import com.crmflow.api.emailtemplate.EmailTemplateRepository;
import com.crmflow.api.flow.SequenceSchema;
import com.crmflow.api.note.NoteSchema;
import com.crmflow.api.opportunity.OpportunitySchema;
import com.crmflow.api.recordfield.RecordSchema;
import com.crmflow.api.recordfield.RecordSchemaDocs;
import com.crmflow.api.task.TaskSchema;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
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

  /**
   * The request bodies of the CRM record endpoints, as named components built from the field specs
   * that validate them (see {@link RecordSchemaDocs}).
   */
  @Bean
  OpenApiCustomizer recordRequestBodies() {
    return openApi -> {
      RecordBodies bodies = new RecordBodies(openApi);
      Schema<?> createAccount = new Schema<>().types(Set.of("boolean"));
      createAccount.setDescription("also create an account named after company (then required)");
      Schema<Object> createOpportunity =
          RecordSchemaDocs.body(OpportunitySchema.NESTED_IN_CONTACT, true, Map.of());
      createOpportunity.setDescription("also create an opportunity for the contact");
      bodies.document(
          "/api/v1/contacts",
          PathItem.HttpMethod.POST,
          "ContactUpsert",
          RecordSchemaDocs.body(
              ContactSchema.SCHEMA,
              true,
              Map.of(
                  "custom_fields", RecordSchemaDocs.customFields("contact"),
                  "create_account", createAccount,
                  "create_opportunity", createOpportunity)));
      bodies.createAndPatch("/api/v1/contacts", "Contact", null, ContactSchema.SCHEMA, "contact");
      bodies.createAndPatch("/api/v1/accounts", "Account", AccountSchema.SCHEMA, "account");
      bodies.createAndPatch(
          "/api/v1/opportunities", "Opportunity", OpportunitySchema.SCHEMA, "opportunity");
      bodies.createAndPatch("/api/v1/tasks", "Task", TaskSchema.SCHEMA, null);
      bodies.createAndPatch(
          "/api/v1/email-templates", "EmailTemplate", EmailTemplateRepository.SCHEMA, null);
      bodies.createAndPatch(
          "/api/v1/conversations",
          "Conversation",
          ConversationSchema.CREATE,
          ConversationSchema.UPDATE,
          null);
      bodies.document(
          "/api/v1/sequences",
          PathItem.HttpMethod.POST,
          "SequenceCreate",
          RecordSchemaDocs.body(SequenceSchema.CREATE, true, Map.of()));
      bodies.document(
          "/api/v1/sequences/{id}",
          PathItem.HttpMethod.PATCH,
          "SequencePatch",
          RecordSchemaDocs.body(
              SequenceSchema.UPDATE,
              false,
              Map.of(
                  "in_flight",
                  new StringSchema()
                      ._enum(List.of("continue", "hold", "end"))
                      .description(
                          "what a pause or an archive does to the flow's runs in progress, given"
                              + " with status paused or archived: continue (a pause's default),"
                              + " hold (a pause only) or end (an archive's default)"))));
      bodies.document(
          "/api/v1/sequences/{id}/duplicate",
          PathItem.HttpMethod.POST,
          "SequenceDuplicate",
          RecordSchemaDocs.body(SequenceSchema.DUPLICATE, false, Map.of()));
      bodies.document(
          "/api/v1/notes",
          PathItem.HttpMethod.POST,
          "NoteCreate",
          RecordSchemaDocs.body(NoteSchema.SCHEMA, true, Map.of()));
    };
  }

  /**
   * A {@code Map<String, Object>} of a response (a node's config, a record's custom fields) holds
   * values of any JSON type; springdoc renders its values as objects, which a string or a number
   * would contradict.
   */
  @Bean
  OpenApiCustomizer mapsOfAnyValue() {
    return openApi -> {
      if (openApi.getComponents() == null || openApi.getComponents().getSchemas() == null) {
        return;
      }
      for (Schema<?> schema : openApi.getComponents().getSchemas().values()) {
        if (schema.getProperties() == null) {
          continue;
        }
        for (Schema<?> property : schema.getProperties().values()) {
          if (property.getAdditionalProperties() instanceof Schema<?> values
              && values.getProperties() == null
              && values.get$ref() == null
              && values.getTypes() != null
              && values.getTypes().equals(Set.of("object"))) {
            property.setAdditionalProperties(true);
          }
        }
      }
    };
  }

  /** The optional Idempotency-Key header of every POST of the authenticated API. */
  @Bean
  OpenApiCustomizer idempotencyKeyHeader() {
    return openApi ->
        openApi
            .getPaths()
            .forEach(
                (path, item) -> {
                  if (item.getPost() != null && !path.startsWith("/api/webhooks/automation/")) {
                    Schema<String> key = new Schema<>();
                    key.setTypes(Set.of("string"));
                    key.setMinLength(1);
                    key.setMaxLength(255);
                    item.getPost()
                        .addParametersItem(
                            new HeaderParameter()
                                .name("Idempotency-Key")
                                .required(false)
                                .schema(key)
                                .description(
                                    "A repeat of this request with the same key gets the first"
                                        + " answer again (Idempotent-Replayed: true) instead of"
                                        + " acting twice; kept 24 h per tenant (README)."));
                  }
                });
  }

  /** Puts record body schemas into the document's components and points the operations at them. */
  private record RecordBodies(OpenAPI openApi) {

    /** POST on the collection and PATCH on one record, with the same fields. */
    void createAndPatch(
        String collection, String name, RecordSchema record, String customFieldsOf) {
      createAndPatch(collection, name, record, record, customFieldsOf);
    }

    /**
     * @param create the fields of POST on the collection (null: documented on its own)
     * @param customFieldsOf the custom field object type of the record (null: none)
     */
    void createAndPatch(
        String collection,
        String name,
        RecordSchema create,
        RecordSchema patch,
        String customFieldsOf) {
      Map<String, Schema<?>> extras =
          customFieldsOf == null
              ? Map.of()
              : Map.of("custom_fields", RecordSchemaDocs.customFields(customFieldsOf));
      if (create != null) {
        document(
            collection,
            PathItem.HttpMethod.POST,
            name + "Create",
            RecordSchemaDocs.body(create, true, extras));
      }
      document(
          collection + "/{id}",
          PathItem.HttpMethod.PATCH,
          name + "Patch",
          RecordSchemaDocs.body(patch, false, extras));
    }

    void document(String path, PathItem.HttpMethod method, String name, Schema<?> body) {
      PathItem item = openApi.getPaths() == null ? null : openApi.getPaths().get(path);
      Operation operation = item == null ? null : item.readOperationsMap().get(method);
      if (operation == null || operation.getRequestBody() == null) {
        throw new IllegalStateException("no " + method + " " + path + " with a body to document");
      }
      openApi.getComponents().addSchemas(name, body);
      operation
          .getRequestBody()
          .setContent(
              new Content()
                  .addMediaType(
                      "application/json",
                      new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + name))));
    }
  }

  static {
    // Most endpoints read their body as a JSON tree (to tell a missing field from a null one and
    // to refuse unknown fields); springdoc described that as JsonNode's own bean properties
    // (array, empty, null, ...), which no client should send. A free-form object is honest.
    SpringDocUtils.getConfig()
        .replaceWithSchema(
            JsonNode.class,
            new ObjectSchema()
                .description("A JSON object with the fields this endpoint documents (README)."))
        // the authenticated caller comes from the API key, not from a query parameter
        .addRequestWrapperToIgnore(Caller.class);
  }
}
