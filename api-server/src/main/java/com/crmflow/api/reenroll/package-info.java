/**
 * Re-enrollment rules of a flow: how many runs a record may have of it (always, never, or again
 * after some days), claimed in the transaction that stores each run.
 */
package com.crmflow.api.reenroll;
