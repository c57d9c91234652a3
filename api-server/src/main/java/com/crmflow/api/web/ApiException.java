package com.crmflow.api.web;

import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * An error a client caused (or must be told about), turned into an RFC 9457 problem by {@link
 * ProblemDetailsAdvice}. Use the factory methods; they keep titles and statuses consistent.
 */
public class ApiException extends RuntimeException {

  private final HttpStatus status;
  private final List<FieldProblem> fieldProblems;
  private final Map<String, String> headers;

  public ApiException(
      HttpStatus status,
      String detail,
      List<FieldProblem> fieldProblems,
      Map<String, String> headers) {
    super(detail);
    this.status = status;
    this.fieldProblems = List.copyOf(fieldProblems);
    this.headers = Map.copyOf(headers);
  }

  public static ApiException notFound(String what, Object id) {
    return new ApiException(
        HttpStatus.NOT_FOUND, what + " " + id + " was not found", List.of(), Map.of());
  }

  public static ApiException badRequest(String field, String message) {
    return invalid(List.of(new FieldProblem(field, message)));
  }

  public static ApiException invalid(List<FieldProblem> problems) {
    return new ApiException(HttpStatus.BAD_REQUEST, summary(problems), problems, Map.of());
  }

  public static ApiException unprocessable(String detail, List<FieldProblem> problems) {
    return new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, detail, problems, Map.of());
  }

  public static ApiException conflict(String detail) {
    return new ApiException(HttpStatus.CONFLICT, detail, List.of(), Map.of());
  }

  public static ApiException unauthorized() {
    // one body for missing, malformed, unknown and revoked keys: it must not tell them apart
    return new ApiException(
        HttpStatus.UNAUTHORIZED,
        "A valid API key is required: send it as 'Authorization: Bearer <key>'.",
        List.of(),
        Map.of("WWW-Authenticate", "Bearer"));
  }

  /** 503: Temporal did not answer, so nothing was changed; the client may send it again. */
  public static ApiException workflowEngineUnreachable(String unchanged) {
    return new ApiException(
        HttpStatus.SERVICE_UNAVAILABLE,
        "The workflow engine cannot be reached; the " + unchanged + " is unchanged. Try again.",
        List.of(),
        Map.of("Retry-After", "5"));
  }

  public static ApiException forbidden(String detail) {
    return new ApiException(HttpStatus.FORBIDDEN, detail, List.of(), Map.of());
  }

  public static ApiException payloadTooLarge(long maxBytes) {
    return new ApiException(
        HttpStatus.CONTENT_TOO_LARGE,
        "The request body is larger than the limit of " + maxBytes + " bytes.",
        List.of(),
        Map.of());
  }

  private static String summary(List<FieldProblem> problems) {
    if (problems.size() == 1) {
      return problems.get(0).field() + ": " + problems.get(0).message();
    }
    return problems.size() + " fields are invalid; see errors.";
  }

  public HttpStatus status() {
    return status;
  }

  public List<FieldProblem> fieldProblems() {
    return fieldProblems;
  }

  public Map<String, String> headers() {
    return headers;
  }
}
