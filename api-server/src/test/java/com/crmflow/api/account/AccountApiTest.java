package com.crmflow.api.account;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccountApiTest extends ApiTest {

  @Test
  void createReadUpdateAndSearchAccounts() {
    var tenant = newTenant();
    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/accounts",
                Map.of("name", "Umbrella", "domain", "umbrella.example", "industry", "Pharma"));
    assertThat(created.status()).isEqualTo(201);
    String id = created.text("/account/id");

    ApiResponse patched =
        tenant.api().patch("/api/v1/accounts/" + id, Map.of("industry", "Biotech"));
    assertThat(patched.text("/account/industry")).isEqualTo("Biotech");
    assertThat(patched.text("/account/domain")).isEqualTo("umbrella.example");
    assertThat(tenant.api().get("/api/v1/accounts/" + id).text("/account/name"))
        .isEqualTo("Umbrella");

    tenant.api().post("/api/v1/accounts", Map.of("name", "Cyberdyne"));
    ApiResponse search = tenant.api().get("/api/v1/accounts?search=brel");
    assertThat(search.at("/total").asInt()).isEqualTo(1);
    assertThat(search.text("/accounts/0/id")).isEqualTo(id);

    ApiResponse duplicate = tenant.api().post("/api/v1/accounts", Map.of("name", "umbrella"));
    assertThat(duplicate.status()).isEqualTo(409);
    ApiResponse noName = tenant.api().post("/api/v1/accounts", Map.of("domain", "x.example"));
    assertThat(noName.status()).isEqualTo(400);
    assertThat(tenant.api().get("/api/v1/accounts").at("/total").asInt()).isEqualTo(2);
  }
}
