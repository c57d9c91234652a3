package com.crmflow.api.access;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The scope an API endpoint needs. Every handler under {@code /api/} carries one (a test checks
 * it); a key without the scope gets 403.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface RequiresScope {
  Scope value();
}
