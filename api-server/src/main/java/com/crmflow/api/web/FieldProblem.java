package com.crmflow.api.web;

/** One invalid input in a problem-details answer: which field, and what is wrong with it. */
public record FieldProblem(String field, String message) {}
