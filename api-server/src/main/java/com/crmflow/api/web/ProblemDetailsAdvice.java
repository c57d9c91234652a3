package com.crmflow.api.web;

import com.crmflow.shared.tracing.CurrentTrace;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.lang.Nullable;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * The one place that turns exceptions into RFC 9457 problem details ({@code
 * application/problem+json} with status, title, detail and, for invalid input, {@code errors}: a
 * list of {@code {field, message}}, and {@code trace_id}: the request's trace). Spring MVC's own
 * exceptions (415, 405, 406, ...) come through {@link ResponseEntityExceptionHandler}; anything
 * unexpected becomes a 500 that reveals nothing.
 */
@RestControllerAdvice
public class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

  /** The problem member that names the request's trace. */
  public static final String TRACE_ID = "trace_id";

  /** SQLSTATEs of text the database cannot store: character_not_in_repertoire, untranslatable. */
  private static final Set<String> UNSTORABLE_TEXT = Set.of("22021", "22P05");

  /**
   * SQLSTATEs of a value past what the database stores: string_data_right_truncation,
   * numeric_value_out_of_range, datetime_field_overflow, program_limit_exceeded (an index entry
   * over its few kilobytes). Each input is checked where it is read; these answer for any that a
   * check misses.
   */
  private static final Set<String> OUT_OF_RANGE = Set.of("22001", "22003", "22008", "54000");

  @ExceptionHandler(ApiException.class)
  ResponseEntity<Object> handleApiException(ApiException e) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(e.status(), e.getMessage());
    if (!e.fieldProblems().isEmpty()) {
      problem.setProperty("errors", e.fieldProblems());
    }
    HttpHeaders headers = new HttpHeaders();
    e.headers().forEach(headers::set);
    return problemResponse(problem, headers);
  }

  /**
   * Tomcat parses the query string and a form body on the first read of a parameter, and refuses
   * bytes that do not decode (a {@code %FF} outside a UTF-8 sequence) or too many parameters.
   */
  @ExceptionHandler(InvalidParameterException.class)
  ResponseEntity<Object> handleInvalidParameters(InvalidParameterException e) {
    return handleApiException(
        ApiException.badRequest(
            "parameters",
            "could not be read from the query string or form body: they must be percent-encoded"
                + " UTF-8, and not too many"));
  }

  /**
   * PostgreSQL refuses text it cannot store: a NUL (U+0000) in a query parameter, say. JSON bodies
   * are checked before they reach an endpoint; this is for everything else a client sends. A value
   * past the database's range is the request's too.
   */
  @ExceptionHandler(DataAccessException.class)
  ResponseEntity<Object> handleDataAccess(DataAccessException e) {
    SQLException refused = findCause(e, SQLException.class);
    if (refused != null && UNSTORABLE_TEXT.contains(refused.getSQLState())) {
      return handleApiException(
          ApiException.badRequest(
              "request", "must not contain the NUL character (U+0000), which cannot be stored"));
    }
    if (refused != null && OUT_OF_RANGE.contains(refused.getSQLState())) {
      log.warn("A request's value was refused by the database", e);
      return handleApiException(
          ApiException.badRequest(
              "request",
              "holds a value too long or out of range to be stored (a text, a number or a date)"));
    }
    return handleUnexpected(e);
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<Object> handleUnexpected(Exception e) {
    log.error("Unhandled exception", e);
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.INTERNAL_SERVER_ERROR, "An unexpected error occurred.");
    return problemResponse(problem, new HttpHeaders());
  }

  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(
      HttpMessageNotReadableException e,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    RequestBodyTooLargeException tooLarge = findCause(e, RequestBodyTooLargeException.class);
    if (tooLarge != null) {
      return handleApiException(ApiException.payloadTooLarge(tooLarge.maxBytes()));
    }
    JacksonException jackson = findCause(e, JacksonException.class);
    if (jackson == null) {
      return handleApiException(ApiException.badRequest("body", "A JSON body is required."));
    }
    return handleApiException(ApiException.invalid(List.of(describe(jackson))));
  }

  @Override
  protected ResponseEntity<Object> handleMethodArgumentNotValid(
      MethodArgumentNotValidException e,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    List<FieldProblem> problems = new ArrayList<>();
    e.getBindingResult()
        .getFieldErrors()
        .forEach(
            error ->
                problems.add(
                    new FieldProblem(
                        JsonNames.snakeCase(error.getField()), error.getDefaultMessage())));
    e.getBindingResult()
        .getGlobalErrors()
        .forEach(error -> problems.add(new FieldProblem("body", error.getDefaultMessage())));
    return handleApiException(ApiException.invalid(problems));
  }

  @Override
  protected ResponseEntity<Object> handleHandlerMethodValidationException(
      HandlerMethodValidationException e,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    List<FieldProblem> problems =
        e.getParameterValidationResults().stream()
            .flatMap(
                result ->
                    result.getResolvableErrors().stream()
                        .map(
                            error ->
                                new FieldProblem(
                                    result.getMethodParameter().getParameterName(),
                                    error.getDefaultMessage())))
            .collect(Collectors.toList());
    return handleApiException(ApiException.invalid(problems));
  }

  @Override
  protected ResponseEntity<Object> handleTypeMismatch(
      org.springframework.beans.TypeMismatchException e,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    String name =
        e instanceof MethodArgumentTypeMismatchException mismatch
            ? mismatch.getName()
            : e.getPropertyName();
    String expected =
        e.getRequiredType() == null ? "a valid value" : expectedKind(e.getRequiredType());
    return handleApiException(ApiException.badRequest(name, "must be " + expected));
  }

  @Override
  protected ResponseEntity<Object> handleExceptionInternal(
      Exception e,
      @Nullable Object body,
      HttpHeaders headers,
      HttpStatusCode statusCode,
      WebRequest request) {
    // Spring MVC's own exceptions: keep their status and detail, but always as problem+json
    ResponseEntity<Object> response =
        super.handleExceptionInternal(e, body, headers, statusCode, request);
    if (response == null) {
      return null;
    }
    if (response.getBody() instanceof ProblemDetail problem) {
      withTraceId(problem);
    }
    HttpHeaders merged = new HttpHeaders();
    merged.putAll(response.getHeaders());
    merged.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
    return new ResponseEntity<>(response.getBody(), merged, response.getStatusCode());
  }

  private static ResponseEntity<Object> problemResponse(ProblemDetail problem, HttpHeaders h) {
    withTraceId(problem);
    h.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
    return new ResponseEntity<>(problem, h, problem.getStatus());
  }

  /**
   * {@code trace_id}: the W3C trace of the request the problem answers (32 lowercase hex digits),
   * what an operator searches the logs and the tracing UI for.
   */
  private static void withTraceId(ProblemDetail problem) {
    CurrentTrace.traceId().ifPresent(id -> problem.setProperty(TRACE_ID, id));
  }

  private static FieldProblem describe(JacksonException e) {
    String field = jsonPath(e);
    if (e instanceof UnrecognizedPropertyException unknown) {
      return new FieldProblem(field, "is not a known field of this request");
    }
    if (e instanceof InvalidFormatException invalid) {
      return new FieldProblem(
          field, "has an invalid value '" + invalid.getValue() + "': " + hint(invalid));
    }
    if (e instanceof MismatchedInputException mismatched) {
      Class<?> target = mismatched.getTargetType();
      return new FieldProblem(
          field.isEmpty() ? "body" : field,
          "must be " + (target == null ? "of another type" : expectedKind(target)));
    }
    if (e instanceof StreamReadException) {
      return new FieldProblem("body", "is not valid JSON: " + e.getOriginalMessage());
    }
    return new FieldProblem(field.isEmpty() ? "body" : field, e.getOriginalMessage());
  }

  private static String hint(InvalidFormatException e) {
    Class<?> target = e.getTargetType();
    if (target != null && target.isEnum()) {
      return "expected one of "
          + java.util.Arrays.stream(target.getEnumConstants())
              .map(Object::toString)
              .collect(Collectors.joining(", "));
    }
    return "expected " + (target == null ? "another value" : expectedKind(target));
  }

  private static String expectedKind(Class<?> type) {
    if (Number.class.isAssignableFrom(type) || (type.isPrimitive() && type != boolean.class)) {
      return "a number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type == java.util.UUID.class) {
      return "a UUID";
    }
    if (type == java.time.LocalDate.class) {
      return "a date (YYYY-MM-DD)";
    }
    if (java.time.temporal.Temporal.class.isAssignableFrom(type)) {
      return "an ISO-8601 timestamp";
    }
    if (type == String.class) {
      return "a string";
    }
    if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "an array";
    }
    if (java.util.Map.class.isAssignableFrom(type) || type.isRecord()) {
      return "an object";
    }
    return "a valid " + type.getSimpleName();
  }

  private static String jsonPath(JacksonException e) {
    StringBuilder path = new StringBuilder();
    for (JacksonException.Reference ref : e.getPath()) {
      if (ref.getPropertyName() != null) {
        if (!path.isEmpty()) {
          path.append('.');
        }
        path.append(ref.getPropertyName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  private static <T extends Throwable> T findCause(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
