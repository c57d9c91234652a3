package com.crmflow.api.access;

import java.util.Arrays;
import java.util.Optional;

/**
 * What an API key may do. The spec's scopes plus the ones this service adds for endpoints the spec
 * leaves open (each listed in the README with the endpoints it grants).
 */
public enum Scope {
  CONTACTS_READ("contacts:read"),
  CONTACTS_WRITE("contacts:write"),
  ACCOUNTS_READ("accounts:read"),
  ACCOUNTS_WRITE("accounts:write"),
  OPPORTUNITIES_READ("opportunities:read"),
  OPPORTUNITIES_WRITE("opportunities:write"),
  SEQUENCES_READ("sequences:read"),
  SEQUENCES_WRITE("sequences:write"),
  CUSTOM_FIELDS_READ("custom_fields:read"),
  CUSTOM_FIELDS_WRITE("custom_fields:write"),
  CONVERSATIONS_READ("conversations:read"),
  CONVERSATIONS_WRITE("conversations:write"),
  NOTES_READ("notes:read"),
  NOTES_WRITE("notes:write"),
  TASKS_READ("tasks:read"),
  TASKS_WRITE("tasks:write"),
  WEBHOOKS_WRITE("webhooks:write"),
  INTEGRATIONS_READ("integrations:read"),
  INTEGRATIONS_WRITE("integrations:write"),
  AUTOMATION_RUNS_READ("automation_runs:read"),
  AUTOMATION_RUNS_WRITE("automation_runs:write"),
  /**
   * The Temporal UI's address in {@code GET /api/v1/me}: an operator's tool, which shows every
   * tenant's workflows with their payloads, so only the operator's own keys hold it.
   */
  TEMPORAL_UI_READ("temporal_ui:read");

  /** Stored on a key instead of a list: every scope, including scopes added later. */
  public static final String ALL = "*";

  private final String value;

  Scope(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  public static Optional<Scope> fromValue(String value) {
    return Arrays.stream(values()).filter(s -> s.value.equals(value)).findFirst();
  }

  @Override
  public String toString() {
    return value;
  }
}
