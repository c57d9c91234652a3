package com.crmflow.api.flow;

import java.util.UUID;

/**
 * Published inside the transaction that changed a flow's status or canvas, for what follows the
 * flow's state (its schedule workflow).
 */
public record FlowChanged(UUID tenantId, UUID sequenceId) {}
