/**
 * The audit log: every change's row, written in the change's own transaction, and the security
 * events of refused calls (401, 403), both listed by the admin API.
 */
package com.crmflow.api.audit;
