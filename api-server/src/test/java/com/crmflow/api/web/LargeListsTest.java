package com.crmflow.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The lists that grow to millions (contacts, opportunities, conversations): an exact total for a
 * whole list, a capped one that says so for a search, a cursor for pages past offset 10,000, and
 * ranked contact search.
 */
class LargeListsTest extends ApiTest {

  private List<String> emails(ApiResponse page) {
    return page.at("/contacts").valueStream().map(c -> c.get("email").asString()).toList();
  }

  @Test
  void theCursorWalksEveryContactOnceNewestFirst() {
    var tenant = newTenant();
    List<String> created = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      String email = "walk" + i + "@example.com";
      tenant.api().post("/api/v1/contacts", Map.of("email", email));
      created.add(0, email);
    }
    List<String> walked = new ArrayList<>();
    String after = null;
    int pages = 0;
    do {
      ApiResponse page =
          tenant.api().get("/api/v1/contacts?limit=3" + (after == null ? "" : "&after=" + after));
      assertThat(page.status()).as(page.toString()).isEqualTo(200);
      assertThat(page.at("/total").asInt()).isEqualTo(7);
      assertThat(page.at("/total_exact").asBoolean()).isTrue();
      walked.addAll(emails(page));
      JsonNode next = page.at("/next_after");
      after = next.isNull() ? null : next.asString();
      pages++;
    } while (after != null);
    assertThat(pages).isEqualTo(3);
    assertThat(walked).containsExactlyElementsOf(created);
    // offset paging gives the same order
    assertThat(emails(tenant.api().get("/api/v1/contacts?limit=3&offset=3")))
        .containsExactlyElementsOf(created.subList(3, 6));
  }

  /** A page further needs the cursor: each list's slice test checks that refusal. */
  @Test
  void aPageEndingAtTheTenThousandthRowIsServed() {
    var tenant = newTenant();
    for (String path : List.of("contacts", "opportunities", "conversations")) {
      assertThat(tenant.api().get("/api/v1/" + path + "?offset=9950&limit=50").status())
          .isEqualTo(200);
    }
  }

  @Test
  void aWholeListsTotalIsExactAtAnySizeAndASearchCountsUpToItsCap() {
    var tenant = newTenant();
    var other = newTenant();
    other.api().post("/api/v1/contacts", Map.of("email", "bulk-elsewhere@example.com"));
    jdbc.sql(
            """
            insert into contact (id, tenant_id, email)
            select gen_random_uuid(), :tenantId, 'bulk' || n || '@example.com'
            from generate_series(1, 10001) n
            """)
        .param("tenantId", tenant.id())
        .update();
    tenant.api().post("/api/v1/contacts", Map.of("email", "one-more@example.com"));
    // the whole list: the tenant's row count, exact past 10,000, without the other tenant's rows
    ApiResponse page = tenant.api().get("/api/v1/contacts?limit=1");
    assertThat(page.at("/total").asInt()).isEqualTo(10_002);
    assertThat(page.at("/total_exact").asBoolean()).isTrue();
    assertThat(other.api().get("/api/v1/contacts").at("/total").asInt()).isEqualTo(1);
    ApiResponse narrow = tenant.api().get("/api/v1/contacts?search=bulk1000");
    assertThat(narrow.at("/total").asInt()).isEqualTo(3); // bulk1000, bulk10000, bulk10001
    assertThat(narrow.at("/total_exact").asBoolean()).isTrue();
    // a search counts up to 100 matches
    ApiResponse broad = tenant.api().get("/api/v1/contacts?search=bulk&limit=2");
    assertThat(broad.at("/total").asInt()).isEqualTo(100);
    assertThat(broad.at("/total_exact").asBoolean()).isFalse();
    assertThat(broad.at("/contacts").size()).isEqualTo(2);
    // and pages through its first 1,000 matches
    assertThat(tenant.api().get("/api/v1/contacts?search=bulk&offset=950&limit=50").at("/contacts"))
        .hasSize(50);
    ApiResponse tooDeep = tenant.api().get("/api/v1/contacts?search=bulk&offset=960&limit=50");
    assertThat(tooDeep.status()).isEqualTo(400);
    assertThat(tooDeep.text("/errors/0/field")).isEqualTo("offset");
    assertThat(tooDeep.text("/errors/0/message")).contains("first 1000 matches");
  }

  @Test
  void concurrentCreationsInOneTenantAreAllCounted() throws Exception {
    var tenant = newTenant();
    int threads = 8;
    int each = 25;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<Integer>> statuses = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      for (int i = 0; i < each; i++) {
        int n = i;
        statuses.add(
            pool.submit(
                () -> {
                  String id =
                      tenant
                          .api()
                          .post(
                              "/api/v1/contacts",
                              Map.of("email", "counted-" + thread + "-" + n + "@example.com"))
                          .text("/contact/id");
                  tenant
                      .api()
                      .post("/api/v1/opportunities", Map.of("name", "Deal", "contact_id", id));
                  return tenant
                      .api()
                      .post("/api/v1/conversations", Map.of("contact_id", id, "channel", "email"))
                      .status();
                }));
      }
    }
    for (Future<Integer> status : statuses) {
      assertThat(status.get(60, TimeUnit.SECONDS)).isEqualTo(201);
    }
    pool.shutdown();
    for (String path : List.of("contacts", "opportunities", "conversations")) {
      ApiResponse page = tenant.api().get("/api/v1/" + path + "?limit=1");
      assertThat(page.at("/total").asInt()).as(path).isEqualTo(threads * each);
      assertThat(page.at("/total_exact").asBoolean()).isTrue();
    }
    // the same total as counting the rows
    assertThat(
            jdbc.sql("select count(*) from contact where tenant_id = :t")
                .param("t", tenant.id())
                .query(Long.class)
                .single())
        .isEqualTo(threads * each);
  }

  @Test
  void searchRanksTheExactEmailThenPrefixesThenTheNewestOtherMatches() {
    var tenant = newTenant();
    tenant.api().post("/api/v1/contacts", Map.of("email", "lee@ex.com", "first_name", "Zoe"));
    tenant.api().post("/api/v1/contacts", Map.of("email", "b@ex.com", "first_name", "Lee"));
    tenant
        .api()
        .post(
            "/api/v1/contacts",
            Map.of("email", "c@ex.com", "first_name", "Bruce", "last_name", "Lee"));
    tenant.api().post("/api/v1/contacts", Map.of("email", "d@ex.com", "first_name", "Ada"));

    ApiResponse lee = tenant.api().get("/api/v1/contacts?search=LEE");
    // the prefix match first, then the other matches newest first
    assertThat(emails(lee)).containsExactly("b@ex.com", "c@ex.com", "lee@ex.com");
    assertThat(lee.at("/total").asInt()).isEqualTo(3);
    assertThat(lee.at("/next_after").isNull()).isTrue();
    // the exact email first, though it is neither a name prefix nor the newest
    tenant.api().post("/api/v1/contacts", Map.of("email", "lee@ex.com.au", "first_name", "Lee"));
    assertThat(emails(tenant.api().get("/api/v1/contacts?search=lee@ex.com")))
        .containsExactly("lee@ex.com", "lee@ex.com.au");
    // pages of a ranked search do not overlap
    Set<String> seen = new HashSet<>();
    for (int offset = 0; offset < 4; offset++) {
      List<String> one =
          emails(tenant.api().get("/api/v1/contacts?search=e&limit=1&offset=" + offset));
      assertThat(one).hasSize(1);
      assertThat(seen.add(one.get(0))).isTrue();
    }
    ApiResponse cursorWithSearch = tenant.api().get("/api/v1/contacts?search=lee&after=MTAuYQ");
    assertThat(cursorWithSearch.status()).isEqualTo(400);
  }

  @Test
  void aSearchOfMoreMatchesThanItCountsRanksThemTheSameWay() {
    var tenant = newTenant();
    // 150 matches of "kim" that are not prefixes, the newest numbered 1; three name prefixes among
    // older contacts; the contact with the email kim@team.example, oldest of all; and the newest
    // contact, which holds "team.example" but not "kim"
    jdbc.sql(
            """
            insert into contact (id, tenant_id, email, first_name, last_name, created_at)
            select gen_random_uuid(), :tenantId, 'n' || n || '.kim@team.example', 'Ann', 'Kimura',
                   now() - n * interval '1 minute'
            from generate_series(1, 150) n
            union all
            select gen_random_uuid(), :tenantId, email, first_name, null,
                   now() - minutes * interval '1 minute'
            from (values ('kimberly@team.example', 'Kimberly', 200),
                         ('kb@team.example', 'Kim B', 300),
                         ('ka@team.example', 'Kim A', 250),
                         ('kim@team.example', 'Joe', 900),
                         ('bo@team.example', 'Bo', 0)) others(email, first_name, minutes)
            """)
        .param("tenantId", tenant.id())
        .update();

    ApiResponse first = tenant.api().get("/api/v1/contacts?search=kim&limit=5");
    // name prefixes in byte order, then the newest other matches
    assertThat(emails(first))
        .containsExactly(
            "ka@team.example",
            "kb@team.example",
            "kimberly@team.example",
            "n1.kim@team.example",
            "n2.kim@team.example");
    assertThat(first.at("/total").asInt()).isEqualTo(100);
    assertThat(first.at("/total_exact").asBoolean()).isFalse();
    // a page that starts among the prefixes and ends among the newest
    assertThat(emails(tenant.api().get("/api/v1/contacts?search=kim&limit=3&offset=2")))
        .containsExactly("kimberly@team.example", "n1.kim@team.example", "n2.kim@team.example");
    // the oldest matches, on the last page: n150, then the contact whose email is kim@ (no prefix)
    assertThat(emails(tenant.api().get("/api/v1/contacts?search=kim&limit=2&offset=152")))
        .containsExactly("n150.kim@team.example", "kim@team.example");
    // the exact email first, though it is the oldest match
    assertThat(emails(tenant.api().get("/api/v1/contacts?search=KIM@team.example&limit=2")))
        .containsExactly("kim@team.example", "n1.kim@team.example");
    // no exact email and no prefix: the newest matches

    assertThat(emails(tenant.api().get("/api/v1/contacts?search=team.example&limit=3")))
        .containsExactly("bo@team.example", "n1.kim@team.example", "n2.kim@team.example");
    // past the last match: an empty page that still counts
    ApiResponse beyond = tenant.api().get("/api/v1/contacts?search=kim&limit=50&offset=200");
    assertThat(beyond.at("/contacts").size()).isZero();
    assertThat(beyond.at("/total").asInt()).isEqualTo(100);
    assertThat(beyond.at("/total_exact").asBoolean()).isFalse();
  }

  @Test
  void opportunitiesAndConversationsPageByCursorToo() {
    var tenant = newTenant();
    String contact =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "pages@example.com"))
            .text("/contact/id");
    for (int i = 0; i < 3; i++) {
      tenant
          .api()
          .post("/api/v1/opportunities", Map.of("name", "Deal " + i, "contact_id", contact));
      tenant.api().post("/api/v1/conversations", Map.of("contact_id", contact, "channel", "email"));
    }
    for (String path : List.of("opportunities", "conversations")) {
      ApiResponse first = tenant.api().get("/api/v1/" + path + "?limit=2");
      assertThat(first.status()).as(first.toString()).isEqualTo(200);
      assertThat(first.at("/total").asInt()).isEqualTo(3);
      assertThat(first.at("/total_exact").asBoolean()).isTrue();
      ApiResponse second =
          tenant.api().get("/api/v1/" + path + "?limit=2&after=" + first.text("/next_after"));
      assertThat(second.at("/" + path).size()).isEqualTo(1);
      assertThat(second.at("/next_after").isNull()).isTrue();
      Set<String> ids = new HashSet<>();
      first.at("/" + path).forEach(row -> ids.add(row.get("id").asString()));
      second.at("/" + path).forEach(row -> ids.add(row.get("id").asString()));
      assertThat(ids).hasSize(3);
    }
  }

  @Test
  void deepPagesByOffsetFollowOnFromShallowOnesInEveryList() {
    var tenant = newTenant();
    // rows made together share their time, so the id orders them, as in an import
    jdbc.sql(
            """
            with made as (
              insert into contact (id, tenant_id, email, created_at)
              select gen_random_uuid(), :tenantId, 'deep' || n || '@example.com',
                     timestamptz '2026-01-01' + (n / 100) * interval '1 day'
              from generate_series(1, 700) n
              returning id, created_at)
            insert into conversation (id, tenant_id, contact_id, channel, last_activity_at)
            select gen_random_uuid(), :tenantId, id, 'email', created_at from made
            """)
        .param("tenantId", tenant.id())
        .update();
    jdbc.sql(
            """
            insert into opportunity (id, tenant_id, name, created_at)
            select gen_random_uuid(), :tenantId, 'Deal ' || n, timestamptz '2026-01-01'
            from generate_series(1, 700) n
            """)
        .param("tenantId", tenant.id())
        .update();
    Map<String, String> orders =
        Map.of(
            "contacts",
                "select id from contact where tenant_id = :tenantId"
                    + " order by created_at desc, id desc",
            "opportunities",
                "select id from opportunity where tenant_id = :tenantId"
                    + " order by created_at desc, id desc",
            "conversations",
                "select id from conversation where tenant_id = :tenantId"
                    + " order by last_activity_at desc, id desc");
    orders.forEach(
        (path, order) -> {
          List<String> expected =
              jdbc.sql(order).param("tenantId", tenant.id()).query(String.class).list();
          List<String> pages = new ArrayList<>();
          // pages before, across and past the offset from which a page's ids are read first
          for (int offset = 440; offset < 660; offset += 20) {
            ApiResponse page = tenant.api().get("/api/v1/" + path + "?limit=20&offset=" + offset);
            page.at("/" + path).forEach(row -> pages.add(row.get("id").asString()));
          }
          assertThat(pages).as(path).isEqualTo(expected.subList(440, 660));
        });
  }
}
