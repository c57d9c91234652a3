package com.crmflow.api.tenant;

/**
 * A quota of public trigger calls: {@code requests} per {@code windowSeconds}, a token bucket of
 * that many calls refilled evenly over the window.
 */
public record TriggerQuota(int requests, int windowSeconds) {}
