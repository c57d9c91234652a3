import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The least any service can do for the trigger benchmark: answer 200 and POST the body to the
 * harness's sink, with no database and no workflow. Run by bench/harness-ceiling.sh to show what
 * the harness itself reaches on this machine: {@code java bench/NoopTriggerService.java PORT}.
 */
public class NoopTriggerService {
  public static void main(String[] args) throws Exception {
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    URI sink = URI.create("http://127.0.0.1:18080/sink");
    ExecutorService calls = Executors.newFixedThreadPool(8);
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 1024);
    server.createContext(
        "/trigger",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          byte[] answer = "{\"received\":true}".getBytes();
          exchange.sendResponseHeaders(200, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
          calls.submit(
              () ->
                  client.send(
                      HttpRequest.newBuilder(sink).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                      HttpResponse.BodyHandlers.discarding()));
        });
    server.setExecutor(Executors.newFixedThreadPool(16));
    server.start();
  }
}
