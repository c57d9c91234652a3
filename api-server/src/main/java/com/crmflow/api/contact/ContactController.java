package com.crmflow.api.contact;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.account.Account;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.opportunity.Opportunity;
import com.crmflow.api.recordfield.LikePattern;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Cursor;
import com.crmflow.api.web.LargeLists;
import com.crmflow.api.web.Paging;
import com.crmflow.api.web.TenantRowCounts;
import com.crmflow.api.web.TenantRowCounts.CountedTable;
import java.util.List;
import java.util.Locale;
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
@RequestMapping("/api/v1/contacts")
class ContactController {

  private final ContactRepository contacts;
  private final ContactService service;
  private final TenantRowCounts rowCounts;

  ContactController(ContactRepository contacts, ContactService service, TenantRowCounts rowCounts) {
    this.contacts = contacts;
    this.service = service;
    this.rowCounts = rowCounts;
  }

  /**
   * {@code {contacts, total, total_exact, limit, offset, next_after}}: newest first, or with {@code
   * search} ranked (exact email, then name and email prefixes, then the other matches). See {@link
   * LargeLists} for the bounded total and the cursor; a search takes no cursor.
   */
  @GetMapping
  @RequiresScope(Scope.CONTACTS_READ)
  ContactPage list(
      Caller caller,
      @RequestParam(required = false) String search,
      @RequestParam(required = false) String email,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset,
      @RequestParam(required = false) String after) {
    LargeLists.Request request = LargeLists.Request.of(limit, offset, after);
    Paging.search(search);
    String pattern = LikePattern.contains(search);
    String exactEmail =
        email == null || email.isBlank() ? null : email.trim().toLowerCase(Locale.ROOT);
    UUID tenantId = caller.tenantId();
    if (pattern == null || exactEmail != null) {
      List<Contact> page =
          contacts.list(
              tenantId, exactEmail, pattern, request.after(), request.limit(), request.offset());
      LargeLists.Total total =
          pattern == null && exactEmail == null
              ? LargeLists.Total.exact(rowCounts.count(tenantId, CountedTable.CONTACT))
              : LargeLists.Total.counted(
                  contacts.countUpTo(tenantId, pattern, exactEmail, LargeLists.TOTAL_CAP + 1),
                  LargeLists.TOTAL_CAP);
      return ContactPage.of(
          LargeLists.page(page, total, request, c -> new Cursor(c.createdAt(), c.id())));
    }
    if (request.after() != null) {
      throw ApiException.badRequest("after", "cannot be combined with search (ranked pages)");
    }
    if (request.offset() + request.limit() > LargeLists.SEARCH_MAX_DEPTH) {
      throw ApiException.badRequest(
          "offset",
          "a search pages through its first "
              + LargeLists.SEARCH_MAX_DEPTH
              + " matches (offset and limit); narrow the search term to reach the others");
    }
    ContactRepository.SearchPage found =
        contacts.search(
            tenantId, search, request.limit(), request.offset(), LargeLists.SEARCH_TOTAL_CAP);
    return ContactPage.of(
        LargeLists.page(
            found.contacts(),
            LargeLists.Total.counted(found.counted(), LargeLists.SEARCH_TOTAL_CAP),
            request,
            null));
  }

  @GetMapping("/{id}")
  @RequiresScope(Scope.CONTACTS_READ)
  ContactAnswer get(Caller caller, @PathVariable UUID id) {
    return new ContactAnswer(
        contacts
            .find(caller.tenantId(), id)
            .orElseThrow(() -> ApiException.notFound("Contact", id)));
  }

  /** What POST /contacts answers: the contact, and the account and opportunity it asked for. */
  record ContactUpsertAnswer(Contact contact, Account account, Opportunity opportunity) {}

  /**
   * Upsert by email: 201 whether the contact was created or an existing one (same email,
   * case-insensitive) was updated, as the spec answers; the event tells which ({@code
   * contact.created} or {@code contact.updated}).
   */
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "201",
      description =
          "{contact, account, opportunity}: created or updated (the spec answers 201 for both)")
  @PostMapping
  @RequiresScope(Scope.CONTACTS_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  ContactUpsertAnswer upsert(Caller caller, @RequestBody JsonNode body) {
    ContactService.UpsertResult result =
        service.upsert(caller.tenantId(), JsonBodies.requireObject(body));
    return new ContactUpsertAnswer(result.contact(), result.account(), result.opportunity());
  }

  @PatchMapping("/{id}")
  @RequiresScope(Scope.CONTACTS_WRITE)
  ContactAnswer patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    return new ContactAnswer(service.patch(caller.tenantId(), id, JsonBodies.requireObject(body)));
  }

  /** {@code {contact}}. */
  record ContactAnswer(Contact contact) {}

  /** A page of contacts (see {@link LargeLists}). */
  record ContactPage(
      List<Contact> contacts,
      long total,
      boolean totalExact,
      int limit,
      int offset,
      String nextAfter) {

    static ContactPage of(LargeLists.Page<Contact> page) {
      return new ContactPage(
          page.rows(),
          page.total(),
          page.totalExact(),
          page.limit(),
          page.offset(),
          page.nextAfter());
    }
  }
}
