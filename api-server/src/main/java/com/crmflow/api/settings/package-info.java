/**
 * The service's settings: one {@code @ConfigurationProperties} tree under {@code crm.*} ({@link
 * com.crmflow.api.settings.CrmProperties}), on the ground floor so that every package reads it
 * without standing on the application's wiring (config).
 */
package com.crmflow.api.settings;
