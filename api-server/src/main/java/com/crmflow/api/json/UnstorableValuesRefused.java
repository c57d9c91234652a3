package com.crmflow.api.json;

import java.lang.reflect.Type;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;
import tools.jackson.databind.JsonNode;

/**
 * Every JSON request body an endpoint reads as a tree is checked for what cannot be stored as sent
 * (NUL characters, numbers beyond a double's range) before the endpoint sees it ({@link
 * JsonBodies#refuseUnstorable}), so no endpoint has to remember to.
 */
@ControllerAdvice
class UnstorableValuesRefused extends RequestBodyAdviceAdapter {

  @Override
  public boolean supports(
      MethodParameter parameter,
      Type targetType,
      Class<? extends HttpMessageConverter<?>> converterType) {
    return targetType instanceof Class<?> type && JsonNode.class.isAssignableFrom(type);
  }

  @Override
  public Object afterBodyRead(
      Object body,
      HttpInputMessage inputMessage,
      MethodParameter parameter,
      Type targetType,
      Class<? extends HttpMessageConverter<?>> converterType) {
    JsonBodies.refuseUnstorable((JsonNode) body);
    return body;
  }
}
