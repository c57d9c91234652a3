package com.crmflow.api.customfield;

import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
class CustomFieldService {

  private static final Pattern FIELD_KEY = Pattern.compile("^[a-z][a-z0-9_]{0,62}$");
  private static final int MAX_OPTIONS = 100;

  private final CustomFieldRepository definitions;

  CustomFieldService(CustomFieldRepository definitions) {
    this.definitions = definitions;
  }

  /** The body of POST /custom-fields; at most 50 fields per object type. */
  @Schema(name = "CustomFieldCreate")
  record CreateRequest(
      @Schema(
              requiredMode = Schema.RequiredMode.REQUIRED,
              allowableValues = {"contact", "account", "opportunity", "conversation"})
          String objectType,
      @Schema(requiredMode = Schema.RequiredMode.REQUIRED, maxLength = 100) String fieldLabel,
      @Schema(
              requiredMode = Schema.RequiredMode.REQUIRED,
              allowableValues = {
                "text",
                "long_text",
                "number",
                "currency",
                "date",
                "dropdown",
                "multi_select",
                "checkbox",
                "email",
                "phone",
                "url"
              })
          String fieldType,
      Boolean isRequired,
      String section,
      String description,
      @Schema(description = "the choices of a dropdown or multi_select (at most 100)")
          List<String> options,
      @Schema(description = "derived from field_label when absent") String fieldKey) {}

  @Transactional
  CustomField create(UUID tenantId, CreateRequest request) {
    List<FieldProblem> problems = new ArrayList<>();
    String objectType = request.objectType();
    if (objectType == null) {
      problems.add(new FieldProblem("object_type", "is required"));
    } else if (!CustomFieldTypes.OBJECT_TYPES.contains(objectType)) {
      problems.add(
          new FieldProblem("object_type", "must be one of " + CustomFieldTypes.OBJECT_TYPES));
    }
    String label = request.fieldLabel() == null ? "" : request.fieldLabel().trim();
    if (label.isEmpty()) {
      problems.add(new FieldProblem("field_label", "is required"));
    } else if (label.length() > 100) {
      problems.add(new FieldProblem("field_label", "must be at most 100 characters"));
    }
    String fieldType = request.fieldType();
    if (fieldType == null) {
      problems.add(new FieldProblem("field_type", "is required"));
    } else if (!CustomFieldTypes.FIELD_TYPES.contains(fieldType)) {
      problems.add(
          new FieldProblem("field_type", "must be one of " + CustomFieldTypes.FIELD_TYPES));
    }
    List<String> options = checkOptions(fieldType, request.options(), problems);
    checkLength("section", request.section(), 100, problems);
    checkLength("description", request.description(), 1000, problems);
    String requestedKey = request.fieldKey();
    if (requestedKey != null && !FIELD_KEY.matcher(requestedKey).matches()) {
      problems.add(
          new FieldProblem(
              "field_key",
              "must start with a lower-case letter and hold only a-z, 0-9 and _ (at most 63)"));
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }

    definitions.lockObjectType(tenantId, objectType);
    if (definitions.count(tenantId, objectType) >= CustomFieldTypes.MAX_PER_OBJECT_TYPE) {
      throw ApiException.unprocessable(
          "A tenant may define at most "
              + CustomFieldTypes.MAX_PER_OBJECT_TYPE
              + " custom fields per object type; "
              + objectType
              + " has reached it.",
          List.of(new FieldProblem("object_type", "custom field limit reached")));
    }
    String fieldKey;
    if (requestedKey != null) {
      if (definitions.keyExists(tenantId, objectType, requestedKey)) {
        throw ApiException.conflict(
            "A " + objectType + " custom field with field_key '" + requestedKey + "' exists.");
      }
      fieldKey = requestedKey;
    } else {
      fieldKey = uniqueKey(tenantId, objectType, keyFromLabel(label));
    }
    return definitions.insert(
        tenantId,
        new CustomFieldRepository.NewCustomField(
            objectType,
            fieldKey,
            label,
            fieldType,
            options,
            Boolean.TRUE.equals(request.isRequired()),
            blankToNull(request.section()),
            blankToNull(request.description())));
  }

  private static List<String> checkOptions(
      String fieldType, List<String> options, List<FieldProblem> problems) {
    // List.of(...).contains(null) throws: a missing field_type is reported by the caller
    boolean needsOptions = fieldType != null && CustomFieldTypes.WITH_OPTIONS.contains(fieldType);
    if (!needsOptions) {
      if (options != null) {
        problems.add(
            new FieldProblem("options", "are only allowed for dropdown and multi_select fields"));
      }
      return null;
    }
    if (options == null || options.isEmpty()) {
      problems.add(new FieldProblem("options", "are required for " + fieldType + " fields"));
      return null;
    }
    if (options.size() > MAX_OPTIONS) {
      problems.add(new FieldProblem("options", "must be at most " + MAX_OPTIONS));
    }
    var seen = new HashSet<String>();
    for (int i = 0; i < options.size(); i++) {
      String option = options.get(i);
      if (option == null || option.isBlank() || option.length() > 255) {
        problems.add(new FieldProblem("options[" + i + "]", "must be 1 to 255 characters"));
      } else if (!seen.add(option)) {
        problems.add(new FieldProblem("options[" + i + "]", "repeats '" + option + "'"));
      }
    }
    return options;
  }

  private static void checkLength(
      String field, String value, int max, List<FieldProblem> problems) {
    if (value != null && value.length() > max) {
      problems.add(new FieldProblem(field, "must be at most " + max + " characters"));
    }
  }

  /** "Deal Size (USD)" → "deal_size_usd"; a key must start with a letter. */
  static String keyFromLabel(String label) {
    String key =
        label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
    if (key.isEmpty() || !Character.isLetter(key.charAt(0))) {
      key = "field_" + key;
    }
    return key.length() > 56 ? key.substring(0, 56).replaceAll("_+$", "") : key;
  }

  private String uniqueKey(UUID tenantId, String objectType, String base) {
    String candidate = base;
    for (int suffix = 2; definitions.keyExists(tenantId, objectType, candidate); suffix++) {
      candidate = base + "_" + suffix;
    }
    return candidate;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
