/**
 * The integration activities (outbound I/O): http_request calls through a client that refuses
 * internal addresses, and emails over SMTP; their settings (IntegrationProperties).
 */
package com.crmflow.worker.activity;
