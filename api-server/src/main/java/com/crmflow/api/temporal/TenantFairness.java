package com.crmflow.api.temporal;

import io.temporal.common.Priority;

/**
 * The Temporal {@link Priority} of a tenant's workflows: the tenant id as fairness key, so that on
 * a server with task queue fairness on ({@code matching.enableFairness}, as the embedded dev server
 * runs) the tasks of one tenant's backlog are dispatched in turn with other tenants' instead of
 * ahead of them. Activities and child workflows inherit it. A server without fairness ignores it.
 */
public final class TenantFairness {

  /**
   * The weight of a tenant's enrolled runs beside its other runs: they take one turn for every two
   * of the tenant's other runs while both have tasks waiting.
   */
  static final float ENROLLMENTS_WEIGHT = 0.5f;

  private TenantFairness() {}

  public static Priority of(Object tenantId) {
    return Priority.newBuilder().setFairnessKey(tenantId.toString()).build();
  }

  /**
   * The priority of a tenant's sequence enrollments: a fairness key of their own ({@code <tenant
   * id>/enrollments}), so that thousands of enrolled runs whose delays end together (a bulk
   * enrollment's next step) take turns with the tenant's triggered runs instead of queueing them
   * behind. Their lower weight keeps a tenant with both kinds waiting from taking two turns to
   * another tenant's one; it takes one and a half at most.
   */
  public static Priority ofEnrollments(Object tenantId) {
    return Priority.newBuilder()
        .setFairnessKey(tenantId + "/enrollments")
        .setFairnessWeight(ENROLLMENTS_WEIGHT)
        .build();
  }
}
