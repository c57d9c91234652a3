package com.crmflow.api.customfield;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.web.ApiException;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class CustomFieldController {

  private final CustomFieldRepository definitions;
  private final CustomFieldService service;

  CustomFieldController(CustomFieldRepository definitions, CustomFieldService service) {
    this.definitions = definitions;
    this.service = service;
  }

  @GetMapping("/api/v1/custom-fields")
  @RequiresScope(Scope.CUSTOM_FIELDS_READ)
  CustomFieldList list(
      Caller caller, @RequestParam(name = "object_type", required = false) String objectType) {
    if (objectType != null && !CustomFieldTypes.OBJECT_TYPES.contains(objectType)) {
      throw ApiException.badRequest(
          "object_type", "must be one of " + CustomFieldTypes.OBJECT_TYPES);
    }
    return new CustomFieldList(definitions.list(caller.tenantId(), objectType));
  }

  /** 201 {@code {field: {...}}}; 409 if field_key is taken; 422 past 50 per object type. */
  @PostMapping("/api/v1/custom-fields")
  @RequiresScope(Scope.CUSTOM_FIELDS_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  CustomFieldAnswer create(Caller caller, @RequestBody CustomFieldService.CreateRequest body) {
    return new CustomFieldAnswer(service.create(caller.tenantId(), body));
  }

  /** {@code {fields}}. */
  record CustomFieldList(List<CustomField> fields) {}

  /** {@code {field}}. */
  record CustomFieldAnswer(CustomField field) {}
}
