package com.crmflow.api.opportunity;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.auth.RequiresScope;
import com.crmflow.api.auth.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Cursor;
import com.crmflow.api.web.LargeLists;
import java.util.Map;
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

  OpportunityController(OpportunityRepository opportunities, OpportunityService service) {
    this.opportunities = opportunities;
    this.service = service;
  }

  /**
   * {@code {opportunities, total, total_exact, limit, offset, next_after}}, newest first (see
   * {@link LargeLists}).
   */
  @GetMapping
  @RequiresScope(Scope.OPPORTUNITIES_READ)
  Map<String, Object> list(
      Caller caller,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset,
      @RequestParam(required = false) String after) {
    LargeLists.Request request = LargeLists.Request.of(limit, offset, after);
    return LargeLists.answer(
        "opportunities",
        opportunities.list(caller.tenantId(), request.after(), request.limit(), request.offset()),
        opportunities.countUpTo(caller.tenantId(), LargeLists.TOTAL_CAP + 1),
        LargeLists.TOTAL_CAP,
        request,
        o -> new Cursor(o.createdAt(), o.id()));
  }

  @GetMapping("/{id}")
  @RequiresScope(Scope.OPPORTUNITIES_READ)
  Map<String, Opportunity> get(Caller caller, @PathVariable UUID id) {
    return Map.of(
        "opportunity",
        opportunities
            .find(caller.tenantId(), id)
            .orElseThrow(() -> ApiException.notFound("Opportunity", id)));
  }

  /** 201 {@code {opportunity: {...}}}. */
  @PostMapping
  @RequiresScope(Scope.OPPORTUNITIES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  Map<String, Opportunity> create(Caller caller, @RequestBody JsonNode body) {
    return Map.of("opportunity", service.create(caller.tenantId(), JsonBodies.requireObject(body)));
  }

  /** 200 {@code {opportunity: {...}}}. */
  @PatchMapping("/{id}")
  @RequiresScope(Scope.OPPORTUNITIES_WRITE)
  Map<String, Opportunity> patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    return Map.of(
        "opportunity", service.patch(caller.tenantId(), id, JsonBodies.requireObject(body)));
  }
}
