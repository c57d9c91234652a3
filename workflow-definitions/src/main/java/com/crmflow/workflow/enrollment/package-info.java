/** The enrollment workflow: a contact's way through a sequence, step by step. */
package com.crmflow.workflow.enrollment;
