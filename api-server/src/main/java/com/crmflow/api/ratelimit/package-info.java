/** The per-key request budget on /api/**: 429 with Retry-After once a key has spent it. */
package com.crmflow.api.ratelimit;
