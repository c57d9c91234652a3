/**
 * Authentication: the bearer API key (or the admin token) resolved to the request's {@link
 * com.crmflow.api.access.Caller} with its tenant and scopes, and each endpoint's required scope
 * checked against it ({@code access} holds the caller and scope types every feature names).
 */
package com.crmflow.api.auth;
