package com.crmflow.api.tenant;

import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * @param defaultTimezone the tenant's time zone (IANA): a send window in the contact's zone uses it
 *     when neither the contact nor the flow has one
 */
public record Tenant(
    UUID id, String name, boolean isDefault, OffsetDateTime createdAt, String defaultTimezone) {}
