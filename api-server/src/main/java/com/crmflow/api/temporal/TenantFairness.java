package com.crmflow.api.temporal;

import io.temporal.common.Priority;

/**
 * The Temporal {@link Priority} of a tenant's workflows: the tenant id as fairness key, so that on
 * a server with task queue fairness on ({@code matching.enableFairness}, as the embedded dev server
 * runs) the tasks of one tenant's backlog are dispatched in turn with other tenants' instead of
 * ahead of them. Activities and child workflows inherit it. A server without fairness ignores it.
 */
public final class TenantFairness {

  private TenantFairness() {}

  public static Priority of(Object tenantId) {
    return Priority.newBuilder().setFairnessKey(tenantId.toString()).build();
  }
}
