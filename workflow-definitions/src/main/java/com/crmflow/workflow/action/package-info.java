/**
 * The activity interfaces of side-effect nodes (http_request, email, chat, crm writes) and the
 * records they take and give back.
 */
package com.crmflow.workflow.action;
