package com.crmflow.api.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiTest;
import io.temporal.serviceclient.GrpcCompression;
import io.temporal.serviceclient.WorkflowServiceStubs;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * gRPC to the embedded dev server (on loopback) goes uncompressed; a server elsewhere keeps the
 * SDK's gzip.
 */
class LoopbackCompressionTest extends ApiTest {

  @Autowired private WorkflowServiceStubs stubs;

  @Test
  void theEmbeddedDevServerIsCalledUncompressed() {
    assertThat(stubs.getOptions().getTarget()).startsWith("127.0.0.1:");
    assertThat(stubs.getOptions().getGrpcCompression()).isEqualTo(GrpcCompression.NONE);
  }

  @Test
  void onlyTargetsOnThisMachineCountAsLoopback() {
    assertThat(LoopbackCompression.isLoopback("127.0.0.1:7233")).isTrue();
    assertThat(LoopbackCompression.isLoopback("127.1.2.3:7233")).isTrue();
    assertThat(LoopbackCompression.isLoopback("localhost:7233")).isTrue();
    assertThat(LoopbackCompression.isLoopback("LOCALHOST:7233")).isTrue();
    assertThat(LoopbackCompression.isLoopback("[::1]:7233")).isTrue();
    assertThat(LoopbackCompression.isLoopback("dns:///localhost:7233")).isTrue();
    assertThat(LoopbackCompression.isLoopback("temporal:7233")).isFalse();
    assertThat(LoopbackCompression.isLoopback("10.0.0.5:7233")).isFalse();
    assertThat(LoopbackCompression.isLoopback("localhost.example.com:7233")).isFalse();
    assertThat(LoopbackCompression.isLoopback("[2001:db8::1]:7233")).isFalse();
    assertThat(LoopbackCompression.isLoopback("my-ns.tmprl.cloud:7233")).isFalse();
    assertThat(LoopbackCompression.isLoopback(null)).isFalse();
  }
}
