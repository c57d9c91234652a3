package com.crmflow.api.tenant;

import com.crmflow.api.audit.AuditedTenant;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
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

  AdminTenantController(TenantRepository tenants) {
    this.tenants = tenants;
  }

  record CreateTenantRequest(@NotBlank @Size(max = 200) String name) {}

  @PostMapping
  @ResponseStatus(HttpStatus.CREATED)
  Map<String, Tenant> create(
      @Valid @RequestBody CreateTenantRequest body, HttpServletRequest request) {
    Tenant tenant = tenants.create(body.name().trim());
    AuditedTenant.set(request, tenant.id());
    return Map.of("tenant", tenant);
  }

  @GetMapping
  Map<String, List<Tenant>> list() {
    return Map.of("tenants", tenants.list());
  }
}
