package com.crmflow.api.contact;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.auth.RequiresScope;
import com.crmflow.api.auth.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.recordfield.LikePattern;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Cursor;
import com.crmflow.api.web.LargeLists;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
@RequestMapping("/api/v1/contacts")
class ContactController {

  private static final int MAX_SEARCH_LENGTH = 200;

  private final ContactRepository contacts;
  private final ContactService service;

  ContactController(ContactRepository contacts, ContactService service) {
    this.contacts = contacts;
    this.service = service;
  }

  /**
   * {@code {contacts, total, total_exact, limit, offset, next_after}}: newest first, or with {@code
   * search} ranked (exact email, then name and email prefixes, then the other matches). See {@link
   * LargeLists} for the bounded total and the cursor; a search takes no cursor.
   */
  @GetMapping
  @RequiresScope(Scope.CONTACTS_READ)
  Map<String, Object> list(
      Caller caller,
      @RequestParam(required = false) String search,
      @RequestParam(required = false) String email,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset,
      @RequestParam(required = false) String after) {
    LargeLists.Request request = LargeLists.Request.of(limit, offset, after);
    if (search != null && search.length() > MAX_SEARCH_LENGTH) {
      throw ApiException.badRequest(
          "search", "must be at most " + MAX_SEARCH_LENGTH + " characters");
    }
    String pattern = LikePattern.contains(search);
    String exactEmail =
        email == null || email.isBlank() ? null : email.trim().toLowerCase(Locale.ROOT);
    UUID tenantId = caller.tenantId();
    if (pattern == null || exactEmail != null) {
      List<Contact> page =
          contacts.list(
              tenantId, exactEmail, pattern, request.after(), request.limit(), request.offset());
      long counted = contacts.countUpTo(tenantId, pattern, exactEmail, LargeLists.TOTAL_CAP + 1);
      return LargeLists.answer(
          "contacts",
          page,
          counted,
          LargeLists.TOTAL_CAP,
          request,
          c -> new Cursor(c.createdAt(), c.id()));
    }
    if (request.after() != null) {
      throw ApiException.badRequest("after", "cannot be combined with search (ranked pages)");
    }
    ContactRepository.SearchPage found =
        contacts.search(
            tenantId, search, request.limit(), request.offset(), LargeLists.SEARCH_TOTAL_CAP);
    return LargeLists.answer(
        "contacts", found.contacts(), found.counted(), LargeLists.SEARCH_TOTAL_CAP, request, null);
  }

  @GetMapping("/{id}")
  @RequiresScope(Scope.CONTACTS_READ)
  Map<String, Contact> get(Caller caller, @PathVariable UUID id) {
    return Map.of(
        "contact",
        contacts
            .find(caller.tenantId(), id)
            .orElseThrow(() -> ApiException.notFound("Contact", id)));
  }

  /**
   * Upsert by email: 201 when the contact was created, 200 when an existing contact (same email,
   * case-insensitive) was updated. Body {@code {contact, account, opportunity}}.
   */
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "201",
      description =
          "{contact, account, opportunity}: created or updated (the spec answers 201 for both)")
  @PostMapping
  @RequiresScope(Scope.CONTACTS_WRITE)
  ResponseEntity<Map<String, Object>> upsert(Caller caller, @RequestBody JsonNode body) {
    ContactService.UpsertResult result =
        service.upsert(caller.tenantId(), JsonBodies.requireObject(body));
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("contact", result.contact());
    response.put("account", result.account());
    response.put("opportunity", result.opportunity());
    // the spec answers an upsert 201 whether it created the contact or updated it
    return ResponseEntity.status(HttpStatus.CREATED).body(response);
  }

  @PatchMapping("/{id}")
  @RequiresScope(Scope.CONTACTS_WRITE)
  Map<String, Contact> patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    return Map.of("contact", service.patch(caller.tenantId(), id, JsonBodies.requireObject(body)));
  }
}
