package com.crmflow.api.json;

import java.lang.reflect.Type;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;
import tools.jackson.databind.JsonNode;

/**
 * Every JSON request body an endpoint reads as a tree is checked for NUL characters before the
 * endpoint sees it ({@link JsonBodies#refuseNul}), so no endpoint has to remember to.
 */
@ControllerAdvice
class NulCharactersRefused extends RequestBodyAdviceAdapter {

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
    JsonBodies.refuseNul((JsonNode) body);
    return body;
  }
}
