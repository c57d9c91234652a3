/**
 * Idempotency-Key on POST: the first answer is stored and repeated for the same key and body; a
 * different body gets 409.
 */
package com.crmflow.api.idempotency;
