package com.crmflow.api.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;

/**
 * The client of a benchmark's measured calls: Apache HttpClient's classic client, which sends each
 * call on its caller's thread over a kept-alive connection and reads the whole answer, as curl
 * does. The tests' {@code ApiClient} (the JDK HttpClient) hands each call between its own threads
 * and parses every answer, which the benchmark would otherwise count as the service's time and
 * which takes CPU from the service on the two cores they share.
 */
final class BenchHttp implements AutoCloseable {

  /** An answer: its status and its body, unparsed. */
  record Answer(int status, String body) {}

  private final CloseableHttpClient http;
  private final String baseUrl;
  private final String authorization;

  BenchHttp(String baseUrl, String key, int connections) {
    this.baseUrl = baseUrl;
    this.authorization = "Bearer " + key;
    this.http =
        HttpClients.custom()
            .setConnectionManager(
                PoolingHttpClientConnectionManagerBuilder.create()
                    .setMaxConnTotal(connections)
                    .setMaxConnPerRoute(connections)
                    .build())
            .disableCookieManagement()
            .disableRedirectHandling()
            .disableContentCompression()
            .disableAutomaticRetries()
            .build();
  }

  Answer get(String path) {
    return send(new HttpGet(baseUrl + path));
  }

  Answer post(String path, String json) {
    HttpPost post = new HttpPost(baseUrl + path);
    post.setEntity(new StringEntity(json, ContentType.APPLICATION_JSON));
    return send(post);
  }

  private Answer send(ClassicHttpRequest request) {
    request.setHeader("Authorization", authorization);
    try {
      return http.execute(
          request,
          response -> new Answer(response.getCode(), EntityUtils.toString(response.getEntity())));
    } catch (IOException e) {
      throw new UncheckedIOException(request.getMethod() + " " + request.getRequestUri(), e);
    }
  }

  @Override
  public void close() throws IOException {
    http.close();
  }
}
