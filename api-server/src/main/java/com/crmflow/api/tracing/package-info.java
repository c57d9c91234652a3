/** Which work becomes spans, and the traces that start on their own with a link to their cause. */
package com.crmflow.api.tracing;
