/**
 * The hand-over ledger: marks that an email was handed to SMTP, so that a retried activity never
 * sends it twice.
 */
package com.crmflow.api.handover;
