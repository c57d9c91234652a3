package com.crmflow.api.customfield;

import com.crmflow.api.recordfield.RecordSchema;
import com.crmflow.api.recordfield.TextValues;
import com.crmflow.api.web.FieldProblem;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * Validates the {@code custom_fields} object of a contact, account or opportunity against the
 * tenant's definitions. Used by the REST API and by the CRM automation activities alike.
 */
@Component
public class CustomFieldValues {

  private static final Pattern PHONE = Pattern.compile("^\\+?[0-9 ()./-]{5,32}$");
  private static final int MAX_TEXT = 255;
  private static final int MAX_LONG_TEXT = 10_000;

  private final CustomFieldRepository definitions;

  CustomFieldValues(CustomFieldRepository definitions) {
    this.definitions = definitions;
  }

  /**
   * @param customFields the client's custom_fields object (may be null when absent)
   * @param creating whether required fields must have a value
   * @param problems collects problems named {@code custom_fields.<key>}
   * @return the values to merge into the stored object; a null value removes that key
   */
  public Map<String, Object> validate(
      UUID tenantId,
      String objectType,
      JsonNode customFields,
      boolean creating,
      List<FieldProblem> problems) {
    Map<String, Object> values = new LinkedHashMap<>();
    if (customFields != null && !customFields.isNull() && !customFields.isObject()) {
      problems.add(new FieldProblem("custom_fields", "must be an object"));
      return values;
    }
    boolean noValues = customFields == null || customFields.isNull() || customFields.isEmpty();
    if (noValues && !creating) {
      return values; // nothing to check against the definitions: an update of standard fields
    }
    Map<String, CustomField> byKey = new LinkedHashMap<>();
    definitions.list(tenantId, objectType).forEach(d -> byKey.put(d.fieldKey(), d));
    if (customFields != null && customFields.isObject()) {
      for (String key : customFields.propertyNames()) {
        String name = "custom_fields." + key;
        CustomField definition = byKey.get(key);
        if (definition == null) {
          problems.add(new FieldProblem(name, "is not a custom field of " + objectType));
          continue;
        }
        JsonNode node = typed(definition, customFields.get(key));
        if (node.isNull()) {
          if (definition.isRequired()) {
            problems.add(new FieldProblem(name, "is required and cannot be removed"));
          } else {
            values.put(key, null);
          }
          continue;
        }
        String problem = check(definition, node);
        if (problem != null) {
          problems.add(new FieldProblem(name, problem));
        } else {
          values.put(key, plain(node));
        }
      }
    }
    if (creating) {
      for (CustomField definition : byKey.values()) {
        if (definition.isRequired() && values.get(definition.fieldKey()) == null) {
          problems.add(new FieldProblem("custom_fields." + definition.fieldKey(), "is required"));
        }
      }
    }
    return values;
  }

  /** A value sent as text read as its field's type ("1200" for a number field; see TextValues). */
  private static JsonNode typed(CustomField definition, JsonNode node) {
    return switch (definition.fieldType()) {
      case "number", "currency" -> TextValues.number(node);
      case "checkbox" -> TextValues.bool(node);
      case "multi_select" -> TextValues.array(node);
      default -> node;
    };
  }

  /** Why the value does not fit the definition, or null when it does. */
  private static String check(CustomField definition, JsonNode node) {
    switch (definition.fieldType()) {
      case "number", "currency" -> {
        return node.isNumber() ? null : "must be a number";
      }
      case "checkbox" -> {
        return node.isBoolean() ? null : "must be true or false";
      }
      case "multi_select" -> {
        if (!node.isArray()) {
          return "must be an array of options";
        }
        Set<String> seen = new HashSet<>();
        for (JsonNode item : node) {
          if (!item.isString() || !definition.options().contains(item.stringValue())) {
            return "has '" + item + "', which is not one of " + definition.options();
          }
          if (!seen.add(item.stringValue())) {
            return "lists '" + item.stringValue() + "' twice";
          }
        }
        return null;
      }
      default -> {
        // the remaining types are strings
      }
    }
    if (!node.isString()) {
      return "must be a string";
    }
    String text = node.stringValue();
    return switch (definition.fieldType()) {
      case "text" ->
          text.length() <= MAX_TEXT ? null : "must be at most " + MAX_TEXT + " characters";
      case "long_text" ->
          text.length() <= MAX_LONG_TEXT
              ? null
              : "must be at most " + MAX_LONG_TEXT + " characters";
      case "date" -> isDate(text) ? null : "must be a date in the form YYYY-MM-DD";
      case "dropdown" ->
          definition.options().contains(text) ? null : "must be one of " + definition.options();
      case "email" -> RecordSchema.isEmail(text) ? null : "must be a valid email address";
      case "phone" ->
          PHONE.matcher(text).matches() && text.chars().filter(Character::isDigit).count() >= 5
              ? null
              : "must be a phone number such as +49 30 1234567";
      case "url" -> isHttpUrl(text) ? null : "must be an absolute http or https URL";
      default -> "has an unsupported field type " + definition.fieldType();
    };
  }

  private static boolean isDate(String text) {
    try {
      LocalDate.parse(RecordSchema.fourDigitYear(text));
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static boolean isHttpUrl(String text) {
    try {
      URI uri = new URI(text);
      return ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
          && uri.getHost() != null;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static Object plain(JsonNode node) {
    if (node.isNumber()) {
      return node.decimalValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isArray()) {
      return node.valueStream().map(JsonNode::stringValue).toList();
    }
    return node.stringValue();
  }
}
