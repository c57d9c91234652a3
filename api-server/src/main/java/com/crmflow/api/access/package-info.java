/**
 * Who is calling and what they may do: the authenticated caller of a request ({@link
 * com.crmflow.api.access.Caller}), the scopes of API keys, and the annotations that declare the
 * scope an endpoint needs. The ground floor every feature stands on; authentication itself (auth)
 * stands higher, beside the keys it checks.
 */
package com.crmflow.api.access;
