/**
 * Flows (sequences and automations): the REST endpoints under /api/v1/sequences and their status
 * (draft, active, paused, archived), the linear steps view, and the canvas of each: its nodes and
 * edges, each change stored as an immutable version after the structural rules; the secrets of
 * nodes sealed at rest and masked in every read; the scopes a flow acts with. What a change of
 * status asks of the runs in progress goes out through {@link com.crmflow.api.flow.RunsInProgress},
 * which the runs' side carries out.
 */
package com.crmflow.api.flow;
