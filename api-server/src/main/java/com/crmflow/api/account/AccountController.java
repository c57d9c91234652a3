package com.crmflow.api.account;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.recordfield.LikePattern;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
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

/** Accounts (not in the spec beyond id and name): list, read, create, update. */
@RestController
@RequestMapping("/api/v1/accounts")
class AccountController {

  private final AccountRepository accounts;
  private final AccountService service;

  AccountController(AccountRepository accounts, AccountService service) {
    this.accounts = accounts;
    this.service = service;
  }

  /** {@code {accounts, total, limit, offset}}, newest first; search matches the name. */
  @GetMapping
  @RequiresScope(Scope.ACCOUNTS_READ)
  AccountPage list(
      Caller caller,
      @RequestParam(required = false) String search,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    Paging paging = Paging.of(limit, offset);
    String pattern = LikePattern.contains(Paging.search(search));
    return new AccountPage(
        accounts.list(caller.tenantId(), pattern, paging.limit(), paging.offset()),
        accounts.count(caller.tenantId(), pattern),
        paging.limit(),
        paging.offset());
  }

  @GetMapping("/{id}")
  @RequiresScope(Scope.ACCOUNTS_READ)
  AccountAnswer get(Caller caller, @PathVariable UUID id) {
    return new AccountAnswer(
        accounts
            .find(caller.tenantId(), id)
            .orElseThrow(() -> ApiException.notFound("Account", id)));
  }

  @PostMapping
  @RequiresScope(Scope.ACCOUNTS_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  AccountAnswer create(Caller caller, @RequestBody JsonNode body) {
    return new AccountAnswer(service.create(caller.tenantId(), JsonBodies.requireObject(body)));
  }

  @PatchMapping("/{id}")
  @RequiresScope(Scope.ACCOUNTS_WRITE)
  AccountAnswer patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    return new AccountAnswer(service.patch(caller.tenantId(), id, JsonBodies.requireObject(body)));
  }

  /** {@code {account}}. */
  record AccountAnswer(Account account) {}

  /** {@code {accounts, total, limit, offset}}. */
  record AccountPage(List<Account> accounts, long total, int limit, int offset) {}
}
