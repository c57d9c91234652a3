package com.crmflow.api.account;

import com.crmflow.api.recordfield.FieldSpec;
import com.crmflow.api.recordfield.RecordSchema;
import java.util.List;

/** The standard fields of an account. */
public final class AccountSchema {

  public static final RecordSchema SCHEMA =
      new RecordSchema(
          "account",
          List.of(
              FieldSpec.text("name").required(),
              FieldSpec.text("domain"),
              FieldSpec.text("industry")));

  private AccountSchema() {}
}
