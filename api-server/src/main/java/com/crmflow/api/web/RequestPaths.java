package com.crmflow.api.web;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;

/**
 * The path of a request as Spring MVC's dispatcher matches it: the request URI within the
 * application, each segment percent-decoded and without its {@code ;} parameters ({@link
 * PathContainer.PathSegment#valueToMatch()}, what {@code PathPattern}s compare). Every filter that
 * decides on a path asks this, so that it sees what the handler mapping sees; the interceptors
 * decide through the same patterns and the same parsed path. {@link PathSpellingFilter} refuses
 * first the requests whose URI reads differently spelled out and decoded, so what remains is one
 * path, however it was written.
 */
public final class RequestPaths {

  private RequestPaths() {}

  /** The path the dispatcher matches, e.g. {@code /actuator/prometheus}. */
  public static String of(HttpServletRequest request) {
    RequestPath parsed = RequestPath.parse(request.getRequestURI(), request.getContextPath());
    StringBuilder path = new StringBuilder();
    for (PathContainer.Element element : parsed.pathWithinApplication().elements()) {
      path.append(
          element instanceof PathContainer.PathSegment segment
              ? segment.valueToMatch()
              : element.value());
    }
    return path.toString();
  }

  /** Whether the dispatcher's path is {@code base} or lies under it. */
  public static boolean isUnder(HttpServletRequest request, String base) {
    String path = of(request);
    return path.equals(base) || path.startsWith(base.endsWith("/") ? base : base + "/");
  }
}
