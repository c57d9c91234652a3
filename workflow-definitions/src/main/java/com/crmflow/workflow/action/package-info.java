/**
 * The activity interfaces of side-effect nodes (email, chat, crm writes) and the records they take
 * and give back.
 */
package com.crmflow.workflow.action;
