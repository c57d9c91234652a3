package com.crmflow.workflow.node;

import java.util.Locale;

/**
 * The kind of a config field: what its value is and which form control edits it. The console has
 * one form component per kind, so a node type is drawn from its fields alone.
 */
public enum FieldKind {
  /** A plain string. */
  TEXT,
  /** A string that may hold {@code {{…}}} template variables. */
  TEMPLATE,
  /** A number, within the field's range. */
  NUMBER,
  /** One of the field's options. */
  SELECT,
  /** A string that is stored sealed and shown masked. */
  SECRET,
  /** The id of one of the tenant's email templates; the console offers them by name. */
  EMAIL_TEMPLATE,
  /** An object whose values are strings (headers, say); entries may be secret. */
  KEY_VALUE,
  /** Any JSON object. */
  JSON,
  /** true or false. */
  BOOLEAN,
  /** A time of day, HH:mm. */
  TIME,
  /** An IANA time zone. */
  TIMEZONE,
  /** Days of the week, 0 (Sunday) to 6 (Saturday). */
  DAYS,
  /** A 5-field cron expression. */
  CRON,
  /**
   * A send window ({@link SendWindow}): {@code {days, from, to, timezone}}, days 1 (Monday) to 7
   * (Sunday), from and to HH:mm, timezone {@code contact} or an IANA zone; the console shows the
   * zone beside it.
   */
  WINDOW,
  /**
   * A split's branches: {@code [{label, percent}]}, labels unique, percents summing to 100; each
   * label is an output of the node ({@link NodeDescriptor#outputsField}).
   */
  BRANCHES;

  /** The name the API and the console use: {@code key_value}. */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }
}
