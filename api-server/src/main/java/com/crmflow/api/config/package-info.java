/**
 * The service's settings tree (CrmProperties), the web configuration, the OpenAPI document's setup,
 * and the Temporal health check.
 */
package com.crmflow.api.config;
