/** Accounts: the REST endpoints under /api/v1/accounts, their rules and their SQL. */
package com.crmflow.api.account;
