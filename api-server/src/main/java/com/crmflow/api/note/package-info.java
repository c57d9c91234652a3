/** Notes: the REST endpoints under /api/v1/notes, their rules and their SQL. */
package com.crmflow.api.note;
