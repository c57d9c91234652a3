package com.crmflow.api.contact;

import com.crmflow.api.recordfield.FieldKind;
import com.crmflow.api.recordfield.FieldSpec;
import com.crmflow.api.recordfield.RecordSchema;
import java.util.List;

/** The standard fields of a contact (the spec's Contact table plus account_id). */
public final class ContactSchema {

  public static final RecordSchema SCHEMA =
      new RecordSchema(
          "contact",
          List.of(
              FieldSpec.of("email", FieldKind.EMAIL).required(),
              FieldSpec.text("first_name"),
              FieldSpec.text("last_name"),
              FieldSpec.text("phone"),
              FieldSpec.text("mobile_phone"),
              FieldSpec.text("company"),
              FieldSpec.text("title"),
              FieldSpec.text("department"),
              FieldSpec.text("industry"),
              FieldSpec.text("lead_source"),
              FieldSpec.text("lead_status"),
              FieldSpec.text("lifecycle_stage"),
              FieldSpec.text("address_city"),
              FieldSpec.text("address_state"),
              FieldSpec.text("address_country"),
              FieldSpec.of("timezone", FieldKind.TIMEZONE),
              FieldSpec.text("preferred_contact_method"),
              FieldSpec.of("do_not_call", FieldKind.BOOLEAN),
              FieldSpec.of("do_not_email", FieldKind.BOOLEAN),
              FieldSpec.of("do_not_sms", FieldKind.BOOLEAN),
              FieldSpec.of("account_id", FieldKind.UUID)));

  private ContactSchema() {}
}
