/** A flow's counts per node: runs waiting at each node now, passed, failed, skipped, per branch. */
package com.crmflow.api.nodestats;
