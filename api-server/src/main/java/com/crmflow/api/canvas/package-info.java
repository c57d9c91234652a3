/**
 * Canvases: the nodes and edges of a flow, each change stored as an immutable version after the
 * structural rules; the secrets of nodes sealed at rest and masked in every read; the scopes a flow
 * acts with.
 */
package com.crmflow.api.canvas;
