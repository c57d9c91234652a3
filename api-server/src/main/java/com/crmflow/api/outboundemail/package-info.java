/** Outbound emails: the book of what email nodes sent or captured, and its REST listing. */
package com.crmflow.api.outboundemail;
