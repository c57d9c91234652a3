package com.crmflow.api.web;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatus;

/**
 * Tomcat's own error answers as problem details (RFC 9457). Tomcat refuses some requests itself,
 * before any of our code runs: a header or request line over its size limit, a malformed request.
 * Its default valve answers those with an HTML page naming the server; clients of this API get the
 * same problem+json shape as for every other 4xx instead. Errors our code answers already have a
 * body and are left alone.
 */
public class ProblemDetailsErrorReportValve extends ErrorReportValve {

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int status = response.getStatus();
    if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
      return;
    }
    AtomicBoolean ioAllowed = new AtomicBoolean(true);
    response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
    if (!ioAllowed.get()) {
      return; // the connection is gone: nothing can be written
    }
    HttpStatus known = HttpStatus.resolve(status);
    String title = known == null ? "Error" : known.getReasonPhrase();
    String detail =
        status < 500
            ? "The request was refused before it reached the API: a header or the request line"
                + " may be over the size limit, or the request is malformed."
            : "The server could not handle the request.";
    String body =
        "{\"type\":\"about:blank\",\"title\":\""
            + title
            + "\",\"status\":"
            + status
            + ",\"detail\":\""
            + detail
            + "\"}";
    try {
      response.setContentType("application/problem+json");
      response.setCharacterEncoding("UTF-8");
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write(body);
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException notWritable) {
      // the client went away meanwhile: the status line is all it could get
    }
  }
}
