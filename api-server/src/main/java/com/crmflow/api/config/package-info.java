/**
 * The application's wiring, on the top floor: the web configuration, the OpenAPI document's setup
 * (gathering each feature's schemas), the Temporal health check and the worker's shutdown. The
 * settings tree it and every other package read is {@code settings}.
 */
package com.crmflow.api.config;
