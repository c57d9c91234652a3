package com.crmflow.workflow.canvas;

import java.util.Map;

/** A node's label and its type-specific configuration (see {@link NodeType}). */
public record NodeData(String label, Map<String, Object> config) {}
