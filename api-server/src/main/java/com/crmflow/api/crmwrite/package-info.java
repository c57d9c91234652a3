/**
 * The activity that writes CRM records for crm_update and create_record nodes, with the rules the
 * REST endpoints apply.
 */
package com.crmflow.api.crmwrite;
