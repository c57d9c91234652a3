package com.crmflow.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class JsonColumnsTest extends ApiTest {

  @Autowired private JsonColumns columns;

  @Test
  void aNulCharacterIsWrittenAsAReplacementCharacterThatJsonbTakes() {
    String nul = String.valueOf((char) 0);
    String written =
        columns.write(Map.of("a" + nul, List.of("x" + nul + "y"), "b", "\\u0000 as text"));

    Map<String, Object> stored =
        columns.readMap(
            jdbc.sql("select cast(cast(:json as jsonb) as text)")
                .param("json", written)
                .query(String.class)
                .single());

    assertThat(stored)
        .containsEntry("a\uFFFD", List.of("x\uFFFDy"))
        .containsEntry("b", "\\u0000 as text");
  }

  @Test
  void textOutsideAsciiIsWrittenAsItIs() {
    // two-, three- and four-byte UTF-8 (the last outside the BMP, a surrogate pair in Java)
    String text = "Zoë → Ωmega 日本 🚀";
    String written = columns.write(Map.of(text, List.of(text)));

    assertThat(written).isEqualTo("{\"" + text + "\":[\"" + text + "\"]}");
    Map<String, Object> stored =
        columns.readMap(
            jdbc.sql("select cast(cast(:json as jsonb) as text)")
                .param("json", written)
                .query(String.class)
                .single());
    assertThat(stored).containsExactly(Map.entry(text, List.of(text)));
  }
}
