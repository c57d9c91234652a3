package com.crmflow.api.flow;

import com.crmflow.api.recordfield.FieldSpec;
import com.crmflow.api.recordfield.RecordSchema;
import java.util.List;

public final class SequenceSchema {

  static final List<String> BUILDER_MODES = List.of("linear", "visual");
  static final List<String> FLOW_TYPES = List.of("sequence", "automation");
  static final List<String> STATUSES = List.of("draft", "active", "paused", "archived");

  public static final RecordSchema CREATE =
      new RecordSchema(
          "sequence",
          List.of(
              FieldSpec.text("name").required(),
              FieldSpec.longText("description"),
              FieldSpec.oneOf("builder_mode", BUILDER_MODES).notNull(),
              FieldSpec.oneOf("flow_type", FLOW_TYPES).notNull(),
              FieldSpec.oneOf("status", STATUSES).notNull()));

  /** builder_mode and flow_type are fixed once created: a flow's runs depend on them. */
  public static final RecordSchema UPDATE =
      new RecordSchema(
          "sequence",
          List.of(
              FieldSpec.text("name").required(),
              FieldSpec.longText("description"),
              FieldSpec.oneOf("status", STATUSES).notNull()));

  /** A duplicate's own name; the rest comes from the flow copied. */
  public static final RecordSchema DUPLICATE =
      new RecordSchema("sequence", List.of(FieldSpec.text("name")));

  private SequenceSchema() {}
}
