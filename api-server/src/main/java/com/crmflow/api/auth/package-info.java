/**
 * Who is calling: the bearer API key (or the admin token) resolved to a Caller with its tenant and
 * scopes, and the scope each endpoint requires.
 */
package com.crmflow.api.auth;
