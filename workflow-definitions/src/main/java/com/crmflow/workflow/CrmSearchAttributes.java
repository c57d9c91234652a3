package com.crmflow.workflow;

import io.temporal.common.SearchAttributeKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The custom search attributes every workflow of the service carries, so that an operator can find
 * a tenant's runs, an automation's runs or the failed ones in the Temporal UI ({@code CrmTenantId =
 * "…" AND CrmRunStatus = "failed"}). They must be registered on the namespace before a workflow
 * sets them: the embedded dev server registers them as it starts, and the service adds any that a
 * configured server lacks (see the operations docs for a cluster where it may not).
 */
public final class CrmSearchAttributes {

  /** The tenant the workflow works for. */
  public static final SearchAttributeKey<String> TENANT_ID =
      SearchAttributeKey.forKeyword("CrmTenantId");

  /** The sequence or automation whose flow runs (runs, enrollments, schedules). */
  public static final SearchAttributeKey<String> SEQUENCE_ID =
      SearchAttributeKey.forKeyword("CrmSequenceId");

  /**
   * What started it: {@code webhook}, {@code schedule}, {@code crm_event}, {@code enrollment},
   * {@code retry}, or for a webhook delivery the event's name.
   */
  public static final SearchAttributeKey<String> TRIGGER_KIND =
      SearchAttributeKey.forKeyword("CrmTriggerKind");

  /**
   * The record's own status, which Temporal's execution status does not tell: a run that ended
   * {@code failed} is a workflow that completed. Runs: running, completed, failed, cancelled;
   * webhook deliveries: pending, delivered, failed, stopped; schedules: active.
   */
  public static final SearchAttributeKey<String> STATUS =
      SearchAttributeKey.forKeyword("CrmStatus");

  /** All of them, in the order they are registered. */
  public static final List<SearchAttributeKey<String>> ALL =
      List.of(TENANT_ID, SEQUENCE_ID, TRIGGER_KIND, STATUS);

  private CrmSearchAttributes() {}

  /** Name to type, as {@code temporal server start-dev --search-attribute} takes them. */
  public static Map<String, String> namesAndTypes() {
    Map<String, String> all = new LinkedHashMap<>();
    for (SearchAttributeKey<String> key : ALL) {
      all.put(key.getName(), "Keyword");
    }
    return all;
  }
}
