package com.crmflow.api.optimize;

/**
 * An optimization suggestion. type: add_step, remove_step, adjust_timing, improve_content,
 * add_condition, reorder; priority: high, medium, low.
 */
public record Suggestion(
    String type, String title, String description, String priority, String targetNodeId) {}
