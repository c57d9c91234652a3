package com.crmflow.api.account;

import com.crmflow.api.customfield.CustomFieldValues;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;

@Service
public class AccountService {

  private static final Set<String> EXTRAS = Set.of("custom_fields");

  private final AccountRepository accounts;
  private final CustomFieldValues customFields;

  AccountService(AccountRepository accounts, CustomFieldValues customFields) {
    this.accounts = accounts;
    this.customFields = customFields;
  }

  @Transactional
  public Account create(UUID tenantId, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = AccountSchema.SCHEMA.validate(body, true, EXTRAS, problems);
    Map<String, Object> custom =
        customFields.validate(tenantId, "account", body.get("custom_fields"), true, problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    try {
      return accounts.insert(tenantId, fields, custom);
    } catch (DuplicateKeyException e) {
      throw duplicateName(fields);
    }
  }

  @Transactional
  public Account patch(UUID tenantId, UUID id, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = AccountSchema.SCHEMA.validate(body, false, EXTRAS, problems);
    Map<String, Object> custom =
        customFields.validate(tenantId, "account", body.get("custom_fields"), false, problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    try {
      return accounts
          .update(tenantId, id, fields, custom)
          .orElseThrow(() -> ApiException.notFound("Account", id));
    } catch (DuplicateKeyException e) {
      throw duplicateName(fields);
    }
  }

  private static ApiException duplicateName(Map<String, Object> fields) {
    return ApiException.conflict(
        "An account named '" + fields.get("name") + "' exists already (names are unique).");
  }
}
