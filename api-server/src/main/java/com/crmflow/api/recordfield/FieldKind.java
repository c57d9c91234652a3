package com.crmflow.api.recordfield;

/** The kinds of value a standard record field holds, each with its own validation. */
public enum FieldKind {
  /** a string up to the field's length cap, trimmed; blank becomes null */
  TEXT,
  /** an email address, trimmed and lower-cased */
  EMAIL,
  /** an IANA time-zone name such as Europe/Berlin */
  TIMEZONE,
  BOOLEAN,
  /** YYYY-MM-DD */
  DATE,
  /** ISO-8601 timestamp with offset */
  TIMESTAMP,
  /** a number within the field's bounds */
  DECIMAL,
  /** a record id; the caller checks that it exists in the tenant */
  UUID,
  /** one of the field's allowed values */
  ENUM,
  /** an array of short strings (tags), each at most the field's length cap */
  STRING_LIST
}
