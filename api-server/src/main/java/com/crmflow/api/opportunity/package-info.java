/** Opportunities: the REST endpoints under /api/v1/opportunities, their rules and their SQL. */
package com.crmflow.api.opportunity;
