/** Tasks: the REST endpoints under /api/v1/tasks, their rules and their SQL. */
package com.crmflow.api.task;
