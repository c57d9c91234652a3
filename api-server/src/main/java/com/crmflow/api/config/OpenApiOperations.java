package com.crmflow.api.config;

import com.crmflow.api.access.AnyScope;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.web.LargeLists;
import com.crmflow.api.web.Paging;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What every operation of the OpenAPI document says beyond its shape: a summary, an operationId and
 * a tag (from {@code openapi/operations.tsv}, one line per operation), the scope it needs (from its
 * {@link RequiresScope}), its security, and its error answers as problem details. The build lints
 * the document ({@code OpenApiLintTest}), so an operation without its line fails it.
 */
@Configuration
class OpenApiOperations {

  static final String PROBLEM = "Problem";

  /** Resources a tenant has one of, or none yet (404). */
  private static final Set<String> SINGLETONS = Set.of("/api/v1/integrations/chat");

  private record Entry(String operationId, String tag, String summary, String rules) {}

  private static final Map<String, Entry> ENTRIES = load();

  private static Map<String, Entry> load() {
    Map<String, Entry> entries = new LinkedHashMap<>();
    try (InputStream in = OpenApiOperations.class.getResourceAsStream("/openapi/operations.tsv");
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      lines
          .lines()
          .filter(line -> !line.isBlank() && !line.startsWith("#"))
          .map(line -> line.split("\t"))
          .forEach(
              f ->
                  entries.put(
                      f[0] + " " + f[1], new Entry(f[2], f[3], f[4], f.length > 5 ? f[5] : null)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return entries;
  }

  /**
   * The API writes JSON in snake_case (spring.jackson.property-naming-strategy); the document's
   * schemas, read by swagger-core's own Jackson, must name the fields the same way.
   */
  @Bean
  ModelResolver snakeCaseModels() {
    return new ModelResolver(
        Json.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE));
  }

  /** The scope in the description and an extension, from the handler's annotation. */
  @Bean
  OperationCustomizer requiredScope() {
    return (operation, handler) -> {
      RequiresScope scope = handler.getMethodAnnotation(RequiresScope.class);
      String needs =
          scope != null
              ? "Needs the scope `" + scope.value().value() + "`."
              : handler.hasMethodAnnotation(AnyScope.class) ? "Any valid API key." : null;
      if (needs != null) {
        if (scope != null) {
          operation.addExtension("x-required-scope", scope.value().value());
        }
        operation.setDescription(
            operation.getDescription() == null
                ? needs
                : needs + "\n\n" + operation.getDescription());
      }
      return operation;
    };
  }

  @Bean
  OpenApiCustomizer summariesTagsAndErrors() {
    return openApi -> {
      // a field of an answer's record may be null (an unset description)
      openApi
          .getComponents()
          .getSchemas()
          .values()
          .forEach(OpenApiOperations::nullableUnlessRequired);
      openApi.getComponents().addSchemas(PROBLEM, problemSchema());
      openApi
          .getComponents()
          .addSecuritySchemes(
              "webhookSecret",
              new SecurityScheme()
                  .type(SecurityScheme.Type.APIKEY)
                  .in(SecurityScheme.In.HEADER)
                  .name("X-Webhook-Secret")
                  .description("The trigger node's secretToken, when it has one."))
          .addSecuritySchemes(
              "adminToken",
              new SecurityScheme()
                  .type(SecurityScheme.Type.HTTP)
                  .scheme("bearer")
                  .description("The admin token (crm.admin-token)."));
      openApi
          .getPaths()
          .forEach(
              (path, item) ->
                  item.readOperationsMap()
                      .forEach((method, operation) -> describe(path, method, operation)));
    };
  }

  private static void describe(String path, PathItem.HttpMethod method, Operation operation) {
    Entry entry = ENTRIES.get(method.name() + " " + path);
    if (entry != null) {
      operation.setSummary(entry.summary());
      operation.setOperationId(entry.operationId());
      operation.setTags(List.of(entry.tag()));
      if (entry.rules() != null) {
        operation.setDescription(
            operation.getDescription() == null
                ? entry.rules()
                : entry.rules() + "\n\n" + operation.getDescription());
      }
    }
    if (operation.getParameters() != null) {
      operation.getParameters().forEach(OpenApiOperations::describeParameter);
    }
    boolean trigger = path.startsWith("/api/webhooks/automation/");
    boolean admin = path.startsWith("/admin/");
    ApiResponses responses = operation.getResponses();
    if (trigger) {
      operation.setSecurity(
          List.of(new SecurityRequirement(), new SecurityRequirement().addList("webhookSecret")));
      add(responses, 400, "The body is not JSON, or holds what cannot be stored.");
      add(responses, 401, "X-Webhook-Secret is missing or does not match the node's secret.");
      add(responses, 404, "No such tenant, or no node with this id in its flows.");
      add(responses, 409, "The automation kept changing while the call was accepted.");
      add(responses, 413, "The payload is over the size a run can carry.");
      add(responses, 422, "The node is not an active automation's webhook trigger.");
      add(
          responses,
          429,
          "Over the tenant's trigger quota; Retry-After, RateLimit and RateLimit-Policy say when"
              + " to try again.");
      add(
          responses,
          503,
          "The service is at capacity for this tenant's triggers; nothing was stored. Send it"
              + " again after Retry-After.");
      return;
    }
    if (admin) {
      operation.setSecurity(List.of(new SecurityRequirement().addList("adminToken")));
      add(responses, 404, "The admin API is off until crm.admin-token is set, or no such record.");
    }
    if (operation.getRequestBody() != null) {
      add(responses, 413, "The body is over crm.max-request-size (1 MB by default).");
    }
    if (method != PathItem.HttpMethod.GET) {
      add(
          responses,
          409,
          "Conflicts with the current state (a duplicate, a run that is not running), or reuses"
              + " an Idempotency-Key with another body.");
      add(
          responses,
          422,
          "Well-formed, but refers to a record the tenant does not have, breaks a rule of the"
              + " record, or is over a limit.");
    }
    if (method == PathItem.HttpMethod.GET && path.endsWith("/steps")) {
      add(responses, 409, "The sequence is built in visual mode: read it through its canvas.");
    }
    add(responses, 400, "A parameter or the body is invalid; errors name each field.");
    add(responses, 401, "No valid " + (admin ? "admin token" : "API key") + ".");
    if (!admin) {
      add(responses, 403, "The API key lacks the scope this operation needs.");
    }
    if (path.contains("{") || SINGLETONS.contains(path)) {
      add(responses, 404, "No such record in the tenant.");
    }
    if (path.equals("/api/v1/sequences/enroll") || path.equals("/api/v1/sequences/unenroll")) {
      add(responses, 404, "No such sequence, contact or enrollment in the tenant.");
    }
    if (!admin) {
      add(responses, 429, "Over the key's rate limit; Retry-After says when to try again.");
    }
  }

  /** The paging and search parameters' bounds, which every list checks (400 past them). */
  private static void describeParameter(Parameter parameter) {
    if (!"query".equals(parameter.getIn()) || parameter.getSchema() == null) {
      return;
    }
    // a fresh schema each: springdoc shares one instance between parameters of the same type
    switch (parameter.getName()) {
      case "limit" -> {
        parameter.setSchema(
            new IntegerSchema()
                .minimum(BigDecimal.ONE)
                .maximum(BigDecimal.valueOf(Paging.MAX_LIMIT))
                ._default(Paging.DEFAULT_LIMIT));
        parameter.setDescription("Rows per page.");
      }
      case "offset" -> {
        parameter.setSchema(
            new IntegerSchema()
                .minimum(BigDecimal.ZERO)
                .maximum(BigDecimal.valueOf(Paging.MAX_OFFSET))
                ._default(0));
        parameter.setDescription(
            "Rows to skip. Contacts, opportunities and conversations: offset + limit reach the"
                + " first "
                + LargeLists.MAX_DEPTH
                + " rows (a contact search its first "
                + LargeLists.SEARCH_MAX_DEPTH
                + "); read further with after.");
      }
      case "after" ->
          parameter.setDescription(
              "The next_after of the page before: the next page, at any depth. Not with offset.");
      case "search" -> {
        parameter.setSchema(new StringSchema().maxLength(Paging.MAX_SEARCH_LENGTH));
        parameter.setDescription("A case-insensitive substring to look for.");
      }
      default -> {}
    }
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static void nullableUnlessRequired(Schema<?> schema) {
    // the request bodies built from the field specs (closed: additionalProperties false) already
    // say which fields take null
    if (schema.getProperties() == null || Boolean.FALSE.equals(schema.getAdditionalProperties())) {
      return;
    }
    List<String> required = schema.getRequired() == null ? List.of() : schema.getRequired();
    schema
        .getProperties()
        .forEach(
            (name, property) -> {
              Schema field = (Schema) property;
              if (!required.contains(name)
                  && field.getTypes() != null
                  && !field.getTypes().contains("null")) {
                Set<String> types = new LinkedHashSet<>(field.getTypes());
                types.add("null");
                field.setTypes(types);
              }
            });
  }

  private static void add(ApiResponses responses, int status, String description) {
    String code = String.valueOf(status);
    if (responses.containsKey(code)) {
      return;
    }
    Map<String, Object> example = new LinkedHashMap<>();
    example.put("type", "about:blank");
    example.put("title", title(status));
    example.put("status", status);
    example.put("detail", description);
    if (status == 400) {
      // ordered, so that the written document is the same each time it is written
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("field", "email");
      error.put("message", "is required");
      example.put("errors", List.of(error));
    }
    responses.addApiResponse(
        code,
        new ApiResponse()
            .description(description)
            .content(
                new Content()
                    .addMediaType(
                        "application/problem+json",
                        new MediaType()
                            .schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM))
                            .example(example))));
  }

  private static String title(int status) {
    return switch (status) {
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 409 -> "Conflict";
      case 413 -> "Content Too Large";
      case 422 -> "Unprocessable Content";
      case 429 -> "Too Many Requests";
      default -> "Error";
    };
  }

  /** RFC 9457 problem details, with the field errors of a 400 or 422. */
  private static Schema<?> problemSchema() {
    Schema<Object> fieldError = new ObjectSchema();
    fieldError.addProperty("field", new StringSchema().description("the field, e.g. email"));
    fieldError.addProperty("message", new StringSchema());
    Schema<Object> problem = new ObjectSchema();
    problem.setDescription("An RFC 9457 problem document (application/problem+json).");
    problem.addProperty("type", new StringSchema().example("about:blank"));
    problem.addProperty("title", new StringSchema());
    problem.addProperty("status", new IntegerSchema());
    problem.addProperty("detail", new StringSchema());
    problem.addProperty("instance", new StringSchema());
    problem.addProperty("errors", new ArraySchema().items(fieldError));
    problem.setRequired(List.of("title", "status"));
    return problem;
  }
}
