package com.crmflow.workflow.canvas;

/** Where a node sits on the canvas (editor coordinates; no effect on execution). */
public record Position(double x, double y) {}
