package com.crmflow.api.json;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and writes jsonb columns with the application's JSON mapper. jsonb cannot hold U+0000, NUL
 * (PostgreSQL refuses its JSON escape), so writes spell it as U+FFFD: a NUL that got past the API's
 * and the activities' own checks cannot make a write fail, and with it a run's recording, over and
 * over.
 */
@Component
public class JsonColumns {

  private static final SerializableString REPLACEMENT = new SerializedString("\\ufffd");

  /** The standard JSON escapes, with NUL written as U+FFFD; every other character as it is. */
  private static final CharacterEscapes NUL_AS_REPLACEMENT =
      new CharacterEscapes() {
        private final int[] ascii = standardAsciiEscapesForJSON();

        {
          ascii[0] = ESCAPE_CUSTOM;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
          return ascii;
        }

        // Jackson asks here about NUL (marked custom above) and about every character outside
        // ASCII; null leaves those as they are
        @Override
        public SerializableString getEscapeSequence(int ch) {
          return ch == 0 ? REPLACEMENT : null;
        }
      };

  private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};
  private static final TypeReference<List<Object>> LIST = new TypeReference<>() {};

  private final JsonMapper mapper;
  private final ObjectWriter writer;

  public JsonColumns(JsonMapper mapper) {
    this.mapper = mapper;
    this.writer = mapper.writer().with(NUL_AS_REPLACEMENT);
  }

  public String write(Object value) {
    return value == null ? null : writer.writeValueAsString(value);
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
