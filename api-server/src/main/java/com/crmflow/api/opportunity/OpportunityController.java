package com.crmflow.api.opportunity;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Cursor;
import com.crmflow.api.web.LargeLists;
import com.crmflow.api.web.TenantRowCounts;
import com.crmflow.api.web.TenantRowCounts.CountedTable;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
@RequestMapping("/api/v1/opportunities")
class OpportunityController {

  private final OpportunityRepository opportunities;
  private final OpportunityService service;
  private final TenantRowCounts rowCounts;

  OpportunityController(
      OpportunityRepository opportunities, OpportunityService service, TenantRowCounts rowCounts) {
    this.opportunities = opportunities;
    this.service = service;
    this.rowCounts = rowCounts;
  }

  /**
   * {@code {opportunities, total, total_exact, limit, offset, next_after}}, newest first (see
   * {@link LargeLists}).
   */
  @GetMapping
  @RequiresScope(Scope.OPPORTUNITIES_READ)
  OpportunityPage list(
      Caller caller,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset,
      @RequestParam(required = false) String after) {
    LargeLists.Request request = LargeLists.Request.of(limit, offset, after);
    return OpportunityPage.of(
        LargeLists.page(
            opportunities.list(
                caller.tenantId(), request.after(), request.limit(), request.offset()),
            LargeLists.Total.exact(rowCounts.count(caller.tenantId(), CountedTable.OPPORTUNITY)),
            request,
            o -> new Cursor(o.createdAt(), o.id())));
  }

  @GetMapping("/{id}")
  @RequiresScope(Scope.OPPORTUNITIES_READ)
  OpportunityAnswer get(Caller caller, @PathVariable UUID id) {
    return new OpportunityAnswer(
        opportunities
            .find(caller.tenantId(), id)
            .orElseThrow(() -> ApiException.notFound("Opportunity", id)));
  }

  /** 201 {@code {opportunity: {...}}}. */
  @PostMapping
  @RequiresScope(Scope.OPPORTUNITIES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  OpportunityAnswer create(Caller caller, @RequestBody JsonNode body) {
    return new OpportunityAnswer(service.create(caller.tenantId(), JsonBodies.requireObject(body)));
  }

  /** 200 {@code {opportunity: {...}}}. */
  @PatchMapping("/{id}")
  @RequiresScope(Scope.OPPORTUNITIES_WRITE)
  OpportunityAnswer patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    return new OpportunityAnswer(
        service.patch(caller.tenantId(), id, JsonBodies.requireObject(body)));
  }

  /** {@code {opportunity}}. */
  record OpportunityAnswer(Opportunity opportunity) {}

  /** A page of opportunities (see {@link LargeLists}). */
  record OpportunityPage(
      List<Opportunity> opportunities,
      long total,
      boolean totalExact,
      int limit,
      int offset,
      String nextAfter) {

    static OpportunityPage of(LargeLists.Page<Opportunity> page) {
      return new OpportunityPage(
          page.rows(),
          page.total(),
          page.totalExact(),
          page.limit(),
          page.offset(),
          page.nextAfter());
    }
  }
}
