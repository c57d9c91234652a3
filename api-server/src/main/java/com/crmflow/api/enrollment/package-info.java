/**
 * Sequence enrollments: a contact enrolled in a sequence, the enrollment workflow it starts, and
 * what its end and its retries change.
 */
package com.crmflow.api.enrollment;
