/**
 * The fields of CRM records described once (kinds, limits, references) and read the same way by the
 * REST endpoints and the crm writes of flows.
 */
package com.crmflow.api.recordfield;
