package com.crmflow.api.note;

import com.crmflow.api.recordfield.FieldKind;
import com.crmflow.api.recordfield.FieldSpec;
import com.crmflow.api.recordfield.RecordSchema;
import java.util.List;

/** A note: content attached to at least one of a contact, an opportunity or an account. */
public final class NoteSchema {

  public static final RecordSchema SCHEMA =
      new RecordSchema(
          "note",
          List.of(
              FieldSpec.longText("content").required(),
              FieldSpec.of("contact_id", FieldKind.UUID),
              FieldSpec.of("opportunity_id", FieldKind.UUID),
              FieldSpec.of("account_id", FieldKind.UUID)));

  private NoteSchema() {}
}
