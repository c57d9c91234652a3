/**
 * Sequences and automations: the REST endpoints under /api/v1/sequences, their status (draft,
 * active, paused) and the linear steps view.
 */
package com.crmflow.api.sequence;
