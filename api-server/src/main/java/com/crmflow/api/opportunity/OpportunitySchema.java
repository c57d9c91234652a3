package com.crmflow.api.opportunity;

import com.crmflow.api.recordfield.FieldKind;
import com.crmflow.api.recordfield.FieldSpec;
import com.crmflow.api.recordfield.RecordSchema;
import java.util.List;

/** The standard fields of an opportunity (the spec's Opportunity table). */
public final class OpportunitySchema {

  public static final RecordSchema SCHEMA =
      new RecordSchema(
          "opportunity",
          List.of(
              FieldSpec.text("name").required(),
              FieldSpec.text("stage"),
              FieldSpec.decimal("value", "0", "9999999999999999.99"),
              FieldSpec.decimal("probability", "0", "100"),
              FieldSpec.of("close_date", FieldKind.DATE),
              FieldSpec.text("lead_source"),
              FieldSpec.longText("description"),
              FieldSpec.text("next_step"),
              FieldSpec.of("contact_id", FieldKind.UUID),
              FieldSpec.of("account_id", FieldKind.UUID),
              FieldSpec.of("closed_at", FieldKind.TIMESTAMP),
              FieldSpec.longText("lost_reason")));

  /** The fields create_opportunity accepts inside POST /contacts. */
  public static final RecordSchema NESTED_IN_CONTACT =
      new RecordSchema(
          "create_opportunity",
          List.of(
              FieldSpec.text("name").required(),
              FieldSpec.text("stage"),
              FieldSpec.decimal("value", "0", "9999999999999999.99"),
              FieldSpec.decimal("probability", "0", "100"),
              FieldSpec.of("close_date", FieldKind.DATE),
              FieldSpec.longText("description")));

  private OpportunitySchema() {}
}
