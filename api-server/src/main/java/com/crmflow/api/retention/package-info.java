/**
 * Removal of old rows: finished deliveries, dispatched events, hand-over marks, node effects,
 * security events and expired Idempotency-Keys.
 */
package com.crmflow.api.retention;
