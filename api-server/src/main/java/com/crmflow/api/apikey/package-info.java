/**
 * API keys: issued, listed and revoked through the admin API; stored as hashes, each with its
 * tenant, scopes and own rate limit.
 */
package com.crmflow.api.apikey;
