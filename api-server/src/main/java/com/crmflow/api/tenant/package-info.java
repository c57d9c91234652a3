/** Tenants: created and listed through the admin API; every other table is keyed by tenant. */
package com.crmflow.api.tenant;
