package com.crmflow.api.customfield;

import java.util.List;

/** The object types and field types custom fields may have (the spec's lists). */
public final class CustomFieldTypes {

  public static final List<String> OBJECT_TYPES =
      List.of("contact", "account", "opportunity", "conversation");

  public static final List<String> FIELD_TYPES =
      List.of(
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
          "url");

  /** Field types whose values come from the definition's options. */
  public static final List<String> WITH_OPTIONS = List.of("dropdown", "multi_select");

  public static final int MAX_PER_OBJECT_TYPE = 50;

  private CustomFieldTypes() {}
}
