package com.crmflow.api.contact;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A search asks the trigram index for the term's rare trigrams only, a common term is searched by
 * the table, and either finds what the whole pattern finds.
 */
class SearchTrigramsTest extends ApiTest {

  @Autowired SearchTrigrams searchTrigrams;

  @Test
  void aTermsTrigramsAreItsRunsOfLettersAndDigits() {
    assertThat(SearchTrigrams.trigramsOf("user9999@x.com"))
        .containsExactly("use", "ser", "er9", "r99", "999", "com");
    assertThat(SearchTrigrams.trigramsOf("ab cd")).isEmpty();
  }

  @Test
  void theCommonTrigramsAreLeftOutAndTheSearchFindsWhatThePatternFinds() {
    var tenant = newTenant();
    // every email of these contacts starts with "sample": its trigrams become common
    jdbc.sql(
            """
            insert into contact (id, tenant_id, email, first_name)
            select gen_random_uuid(), :tenantId, 'sample' || n || '@example.com', 'Name' || (n % 7)
            from generate_series(1, 60000) n
            """)
        .param("tenantId", tenant.id())
        .update();
    jdbc.sql("analyze contact").update();
    searchTrigrams.resample();

    List<String> rare = searchTrigrams.rareTrigrams("Sample4321");
    assertThat(rare).isNotEmpty().doesNotContain("sam", "amp", "mpl", "ple");
    assertThat(rare).allMatch(t -> "sample4321".contains(t));
    // a term with only common trigrams keeps its whole pattern
    assertThat(searchTrigrams.rareTrigrams("sample")).isEmpty();
    // a term that many of the tenant's contacts hold is searched by the table, a rare one is not,
    // and a small tenant's searches are left to the planner
    assertThat(searchTrigrams.isCommon(tenant.id(), " Name3 ")).isTrue();
    assertThat(searchTrigrams.isCommon(tenant.id(), "sample4321")).isFalse();
    var small = newTenant();
    small.api().post("/api/v1/contacts", Map.of("email", "name3@example.com"));
    assertThat(searchTrigrams.isCommon(small.id(), "name3")).isFalse();

    for (String term : List.of("Sample4321", "ample432", "4321@", "sample", "name3")) {
      ApiResponse found =
          tenant.api().get("/api/v1/contacts?limit=100&search=" + term.replace("@", "%40"));
      assertThat(found.status()).as(found.toString()).isEqualTo(200);
      List<String> emails =
          found.at("/contacts").valueStream().map(c -> c.get("email").asString()).toList();
      List<String> expected =
          jdbc.sql(
                  """
                  select email from contact
                  where tenant_id = :tenantId and search_text like :pattern
                  """)
              .param("tenantId", tenant.id())
              .param("pattern", "%" + term.toLowerCase() + "%")
              .query(String.class)
              .list();
      if (expected.size() <= 100) {
        assertThat(emails).as(term).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(found.at("/total").asInt()).isEqualTo(expected.size());
      } else {
        assertThat(emails).as(term).hasSize(100);
        assertThat(expected).containsAll(emails);
        assertThat(found.at("/total_exact").asBoolean()).isFalse();
      }
    }
  }
}
