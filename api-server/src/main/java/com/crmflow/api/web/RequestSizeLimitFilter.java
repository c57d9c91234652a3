package com.crmflow.api.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Refuses request bodies over the limit with 413: at once when Content-Length says so, and while
 * reading when the body is chunked. The 413 is rendered by the same problem-details advice as every
 * other error.
 */
public class RequestSizeLimitFilter extends OncePerRequestFilter {

  private final long maxBytes;
  private final HandlerExceptionResolver exceptionResolver;

  public RequestSizeLimitFilter(long maxBytes, HandlerExceptionResolver exceptionResolver) {
    this.maxBytes = maxBytes;
    this.exceptionResolver = exceptionResolver;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (request.getContentLengthLong() > maxBytes) {
      exceptionResolver.resolveException(
          request, response, null, ApiException.payloadTooLarge(maxBytes));
      return;
    }
    chain.doFilter(new LimitedRequest(request, maxBytes), response);
  }

  private static final class LimitedRequest extends HttpServletRequestWrapper {
    private final long maxBytes;
    private ServletInputStream limited;

    LimitedRequest(HttpServletRequest request, long maxBytes) {
      super(request);
      this.maxBytes = maxBytes;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      if (limited == null) {
        limited = new LimitedInputStream(super.getInputStream(), maxBytes);
      }
      return limited;
    }
  }

  private static final class LimitedInputStream extends ServletInputStream {
    private final ServletInputStream in;
    private final long maxBytes;
    private long read;

    LimitedInputStream(ServletInputStream in, long maxBytes) {
      this.in = in;
      this.maxBytes = maxBytes;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = in.read(buffer, offset, length);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    private void count(int n) throws RequestBodyTooLargeException {
      read += n;
      if (read > maxBytes) {
        throw new RequestBodyTooLargeException(maxBytes);
      }
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }
  }
}
