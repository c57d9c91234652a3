package com.crmflow.api.idempotency;

import com.crmflow.api.web.RequestPaths;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * For a POST with an Idempotency-Key header: keeps the body once read, so that {@link
 * IdempotencyInterceptor} can compare it with the first request's before the handler reads it too,
 * and keeps the answer, so that the interceptor can store it. Runs after the request size limit.
 */
class IdempotencyFilter extends OncePerRequestFilter {

  static final String HEADER = "Idempotency-Key";

  private static final String PUBLIC_TRIGGER_PREFIX = "/api/webhooks/automation/";

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !"POST".equals(request.getMethod())
        || request.getHeader(HEADER) == null
        // the public trigger answers its own Idempotency-Key (the first run's id)
        || RequestPaths.of(request).startsWith(PUBLIC_TRIGGER_PREFIX);
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
    try {
      chain.doFilter(new ReadBody(request), answer);
    } finally {
      answer.copyBodyToResponse();
    }
  }

  /**
   * The request with its body read into memory (at most the request size limit) when first asked
   * for, inside Spring MVC, so that a body over the limit is answered like any other (413).
   */
  static final class ReadBody extends HttpServletRequestWrapper {

    private byte[] body;

    ReadBody(HttpServletRequest request) {
      super(request);
    }

    byte[] body() throws IOException {
      if (body == null) {
        body = getRequest().getInputStream().readAllBytes();
      }
      return body;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      ByteArrayInputStream in = new ByteArrayInputStream(body());
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
          return in.read(buffer, offset, length);
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new UnsupportedOperationException("the body is already in memory");
        }
      };
    }

    @Override
    public BufferedReader getReader() throws IOException {
      String encoding = getCharacterEncoding();
      Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
      return new BufferedReader(new InputStreamReader(getInputStream(), charset));
    }
  }
}
