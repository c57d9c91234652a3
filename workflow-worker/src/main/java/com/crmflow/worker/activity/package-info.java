/**
 * The integration activities (outbound I/O): http_request calls through the shared client that
 * refuses internal addresses, and emails over SMTP. The client, the cipher and their settings
 * (IntegrationProperties) live in service-shared ({@code com.crmflow.shared}).
 */
package com.crmflow.worker.activity;
