package com.crmflow.api.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.SequenceSupport;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OptimizeApiTest extends ApiTest {

  @Test
  void optimizeReadsTheCurrentCanvas() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "O");
    ApiResponse empty = tenant.api().post("/api/sequences/" + seq + "/optimize", Map.of());
    assertThat(empty.status()).isEqualTo(422);

    tenant.api().put("/api/sequences/" + seq + "/canvas", Flows.completeAutomation("opt-hook"));
    ApiResponse result = tenant.api().post("/api/sequences/" + seq + "/optimize", Map.of());
    assertThat(result.status()).isEqualTo(200);
    // the http_request has nothing checking it; the trailing delay leads nowhere
    assertThat(
            result
                .at("/suggestions")
                .valueStream()
                .map(s -> s.get("type").asString() + ":" + s.get("target_node_id").asString()))
        .contains("add_condition:call", "remove_step:wait");
    var first = result.at("/suggestions/0");
    for (String field :
        new String[] {"type", "title", "description", "priority", "target_node_id"}) {
      assertThat(first.has(field)).as(field).isTrue();
    }
  }
}
