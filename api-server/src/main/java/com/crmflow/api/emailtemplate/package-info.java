/** Email templates: the REST endpoints under /api/v1/email-templates, used by email nodes. */
package com.crmflow.api.emailtemplate;
