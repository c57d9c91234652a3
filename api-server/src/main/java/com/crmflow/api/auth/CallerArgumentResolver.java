package com.crmflow.api.auth;

import com.crmflow.api.access.Caller;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Lets controllers declare a {@link Caller} parameter, set by {@link ApiKeyInterceptor}. */
class CallerArgumentResolver implements HandlerMethodArgumentResolver {

  @Override
  public boolean supportsParameter(MethodParameter parameter) {
    return parameter.getParameterType() == Caller.class;
  }

  @Override
  public Caller resolveArgument(
      MethodParameter parameter,
      ModelAndViewContainer container,
      NativeWebRequest request,
      WebDataBinderFactory binderFactory) {
    Caller caller =
        (Caller) request.getAttribute(Caller.REQUEST_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
    if (caller == null) {
      throw new IllegalStateException("no authenticated caller on " + parameter.getMethod());
    }
    return caller;
  }
}
