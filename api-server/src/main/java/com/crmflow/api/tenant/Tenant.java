package com.crmflow.api.tenant;

import java.time.OffsetDateTime;
import java.util.UUID;

public record Tenant(UUID id, String name, boolean isDefault, OffsetDateTime createdAt) {}
