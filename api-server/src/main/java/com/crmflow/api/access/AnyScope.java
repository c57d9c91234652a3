package com.crmflow.api.access;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An API endpoint any valid key may call, whatever its scopes: only what the key itself is (GET
 * /api/v1/me). Every other handler under {@code /api/} carries a {@link RequiresScope}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface AnyScope {}
