/**
 * Token buckets: the per-key request budget on /api/** (429 with Retry-After once a key has spent
 * it) and the IETF RateLimit fields, also used by the trigger quota.
 */
package com.crmflow.api.ratelimit;
