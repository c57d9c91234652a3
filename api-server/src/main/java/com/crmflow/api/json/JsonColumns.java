package com.crmflow.api.json;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Reads and writes jsonb columns with the application's JSON mapper. */
@Component
public class JsonColumns {

  private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};
  private static final TypeReference<List<Object>> LIST = new TypeReference<>() {};

  private final JsonMapper mapper;

  public JsonColumns(JsonMapper mapper) {
    this.mapper = mapper;
  }

  public String write(Object value) {
    return value == null ? null : mapper.writeValueAsString(value);
  }

  public Map<String, Object> readMap(String json) {
    return json == null ? new LinkedHashMap<>() : mapper.readValue(json, MAP);
  }

  public List<Object> readList(String json) {
    return json == null ? null : mapper.readValue(json, LIST);
  }

  public JsonMapper mapper() {
    return mapper;
  }
}
