/**
 * Outbound calls from either service: the HTTP client that refuses internal addresses (its
 * DestinationPolicy, checked again at dial time), the errors it describes, the CRM-Cause header,
 * the hand-over marks of deliveries whose receivers take no idempotency key, and the settings of
 * the integration activities (IntegrationProperties).
 */
package com.crmflow.shared.outbound;
