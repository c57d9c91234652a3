package com.crmflow.api.tenant;

import com.crmflow.api.audit.AuditedTenant;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Admin API: tenants. Guarded by the admin token (see AdminTokenInterceptor). */
@RestController
@RequestMapping("/admin/v1/tenants")
class AdminTenantController {

  private final TenantRepository tenants;

  private final TransactionTemplate transaction;

  AdminTenantController(TenantRepository tenants, TransactionTemplate transaction) {
    this.tenants = tenants;
    this.transaction = transaction;
  }

  record CreateTenantRequest(@NotBlank @Size(max = 200) String name) {}

  @PostMapping
  @ResponseStatus(HttpStatus.CREATED)
  TenantAnswer create(@Valid @RequestBody CreateTenantRequest body, HttpServletRequest request) {
    // the new tenant names the audit row, which commits with it
    Tenant tenant =
        transaction.execute(
            status -> {
              Tenant created = tenants.create(body.name().trim());
              AuditedTenant.set(request, created.id());
              return created;
            });
    return new TenantAnswer(tenant);
  }

  @GetMapping
  TenantList list() {
    return new TenantList(tenants.list());
  }

  /** What PATCH changes of a tenant. */
  record PatchTenantRequest(
      @NotBlank
          @Pattern(
              regexp = "UTC|[A-Za-z_]+(?:/[A-Za-z0-9_+-]+)+",
              message = "must be an IANA time zone such as Europe/Berlin")
          String defaultTimezone) {}

  /** {@code {default_timezone}}: the tenant's time zone, for send windows. */
  @PatchMapping("/{id}")
  TenantAnswer patch(@PathVariable UUID id, @Valid @RequestBody PatchTenantRequest body) {
    try {
      ZoneId.of(body.defaultTimezone());
    } catch (DateTimeException unknown) {
      throw ApiException.invalid(
          List.of(
              new FieldProblem(
                  "default_timezone", "must be an IANA time zone such as Europe/Berlin")));
    }
    return new TenantAnswer(
        tenants
            .setDefaultTimezone(id, body.defaultTimezone())
            .orElseThrow(() -> ApiException.notFound("Tenant", id)));
  }

  /** {@code {tenant}}. */
  record TenantAnswer(Tenant tenant) {}

  /** {@code {tenants}}. */
  record TenantList(List<Tenant> tenants) {}
}
