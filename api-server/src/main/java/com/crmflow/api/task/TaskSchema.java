package com.crmflow.api.task;

import com.crmflow.api.recordfield.FieldKind;
import com.crmflow.api.recordfield.FieldSpec;
import com.crmflow.api.recordfield.RecordSchema;
import java.util.List;

/** A to-do for a person, optionally linked to a contact, an opportunity and/or an account. */
public final class TaskSchema {

  public static final List<String> STATUSES = List.of("open", "completed", "cancelled");

  public static final RecordSchema SCHEMA =
      new RecordSchema(
          "task",
          List.of(
              FieldSpec.text("title").required(),
              FieldSpec.longText("description"),
              FieldSpec.of("due_date", FieldKind.DATE),
              FieldSpec.oneOf("status", STATUSES).notNull(),
              FieldSpec.of("contact_id", FieldKind.UUID),
              FieldSpec.of("opportunity_id", FieldKind.UUID),
              FieldSpec.of("account_id", FieldKind.UUID)));

  private TaskSchema() {}
}
