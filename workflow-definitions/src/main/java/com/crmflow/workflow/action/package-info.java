/**
 * The activity interfaces of side-effect nodes (http_request, email, chat, crm writes) and of the
 * record watches (wait_until), and the records they take and give back.
 */
package com.crmflow.workflow.action;
