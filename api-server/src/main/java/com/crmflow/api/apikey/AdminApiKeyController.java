package com.crmflow.api.apikey;

import com.crmflow.api.audit.AuditedTenant;
import com.crmflow.api.tenant.TenantRepository;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Admin API: a tenant's API keys. Guarded by the admin token. */
@RestController
@RequestMapping("/admin/v1/tenants/{tenantId}/api-keys")
class AdminApiKeyController {

  private final ApiKeyService apiKeys;
  private final TenantRepository tenants;

  AdminApiKeyController(ApiKeyService apiKeys, TenantRepository tenants) {
    this.apiKeys = apiKeys;
    this.tenants = tenants;
  }

  record CreateKeyRequest(
      @NotBlank @Size(max = 200) String name,
      @NotEmpty @Size(max = 50) List<@NotBlank String> scopes,
      @Min(1) @Max(1_000_000) Integer rateLimitPerMinute) {}

  @PostMapping
  @ResponseStatus(HttpStatus.CREATED)
  IssuedApiKey create(
      @PathVariable UUID tenantId,
      @Valid @RequestBody CreateKeyRequest body,
      HttpServletRequest request) {
    requireTenant(tenantId);
    List<FieldProblem> unknown = new ArrayList<>();
    for (int i = 0; i < body.scopes().size(); i++) {
      if (!ApiKeyService.isKnownScope(body.scopes().get(i))) {
        unknown.add(
            new FieldProblem("scopes[" + i + "]", "unknown scope '" + body.scopes().get(i) + "'"));
      }
    }
    if (!unknown.isEmpty()) {
      throw ApiException.invalid(unknown);
    }
    AuditedTenant.set(request, tenantId); // before the change: its row commits with it
    ApiKeyService.IssuedKey issued =
        apiKeys.issue(tenantId, body.name().trim(), body.scopes(), body.rateLimitPerMinute());
    return new IssuedApiKey(issued.apiKey(), issued.plaintext());
  }

  @GetMapping
  ApiKeyList list(@PathVariable UUID tenantId) {
    requireTenant(tenantId);
    return new ApiKeyList(apiKeys.list(tenantId));
  }

  /** Revocation is immediate: the next request with the key is answered 401. */
  @DeleteMapping("/{keyId}")
  ApiKeyAnswer revoke(
      @PathVariable UUID tenantId, @PathVariable UUID keyId, HttpServletRequest request) {
    requireTenant(tenantId);
    AuditedTenant.set(request, tenantId); // before the change: its row commits with it
    ApiKey revoked =
        apiKeys.revoke(tenantId, keyId).orElseThrow(() -> ApiException.notFound("API key", keyId));
    return new ApiKeyAnswer(revoked);
  }

  private void requireTenant(UUID tenantId) {
    if (!tenants.exists(tenantId)) {
      throw ApiException.notFound("Tenant", tenantId);
    }
  }

  /** {@code {api_keys}}. */
  record ApiKeyList(List<ApiKey> apiKeys) {}

  /** {@code {api_key}}. */
  record ApiKeyAnswer(ApiKey apiKey) {}

  /** {@code {api_key, key}}. */
  record IssuedApiKey(ApiKey apiKey, String key) {}
}
