package com.crmflow.api.chat;

import java.time.OffsetDateTime;

/** A tenant's connected chat integration as the API shows it: never the token itself. */
record ChatIntegration(
    String provider, String tokenHint, String baseUrl, OffsetDateTime connectedAt) {}
