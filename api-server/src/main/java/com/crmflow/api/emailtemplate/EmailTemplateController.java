package com.crmflow.api.emailtemplate;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.api.web.Paging;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
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

/** Email templates that email nodes reference by templateId; part of sequence design. */
@RestController
@RequestMapping("/api/v1/email-templates")
class EmailTemplateController {

  private final EmailTemplateRepository templates;

  EmailTemplateController(EmailTemplateRepository templates) {
    this.templates = templates;
  }

  @GetMapping
  @RequiresScope(Scope.SEQUENCES_READ)
  EmailTemplateList list(
      Caller caller,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    Paging paging = Paging.of(limit, offset);
    return new EmailTemplateList(
        templates.list(caller.tenantId(), paging.limit(), paging.offset()));
  }

  @GetMapping("/{id}")
  @RequiresScope(Scope.SEQUENCES_READ)
  EmailTemplateAnswer get(Caller caller, @PathVariable UUID id) {
    return new EmailTemplateAnswer(
        templates
            .find(caller.tenantId(), id)
            .orElseThrow(() -> ApiException.notFound("Email template", id)));
  }

  @PostMapping
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  EmailTemplateAnswer create(Caller caller, @RequestBody JsonNode body) {
    return new EmailTemplateAnswer(
        templates.insert(caller.tenantId(), validate(JsonBodies.requireObject(body), true)));
  }

  @PatchMapping("/{id}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  EmailTemplateAnswer patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    return new EmailTemplateAnswer(
        templates
            .update(caller.tenantId(), id, validate(JsonBodies.requireObject(body), false))
            .orElseThrow(() -> ApiException.notFound("Email template", id)));
  }

  @DeleteMapping("/{id}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  EmailTemplateDeleted delete(Caller caller, @PathVariable UUID id) {
    if (!templates.delete(caller.tenantId(), id)) {
      throw ApiException.notFound("Email template", id);
    }
    return new EmailTemplateDeleted(true);
  }

  private static Map<String, Object> validate(JsonNode body, boolean creating) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields =
        EmailTemplateRepository.SCHEMA.validate(body, creating, Set.of(), problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    return fields;
  }

  /** {@code {email_templates}}. */
  record EmailTemplateList(List<EmailTemplate> emailTemplates) {}

  /** {@code {email_template}}. */
  record EmailTemplateAnswer(EmailTemplate emailTemplate) {}

  /** {@code {deleted}}. */
  record EmailTemplateDeleted(Boolean deleted) {}
}
