package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The strict JSON reader under the safetensors header: what it takes and what it refuses. */
class JsonTest {
  @Test
  void readsObjectsArraysStringsAndNumbers() throws Exception {
    Object v = Json.parse(" {\"a\": [1, -2, 3.5, 1e3], \"b\": {\"c\": \"x\\u00e9\\n\\\"\"}, \"d\": [true, false, null]} ");
    Map<?, ?> m = (Map<?, ?>) v;
    assertEquals(List.of(1L, -2L, 3.5, 1000.0), m.get("a"));
    assertEquals(Map.of("c", "x\u00e9\n\""), m.get("b"));
    assertEquals(java.util.Arrays.asList(true, false, null), m.get("d"));
    assertEquals(List.of("a", "b", "d"), List.copyOf(m.keySet()), "file order kept");
    assertEquals(9.223372036854775808E18, Json.parse("9223372036854775808"), "past long range: a double");
  }

  @Test
  void refusesWhatRfc8259Refuses() {
    for (String bad : new String[] {"{\"a\":1,}", "[1,]", "{\"a\":01}", "[NaN]", "{'a':1}", "{\"a\":1} x", "{\"a\"}",
        "\"tab\tin string\"", "[1 2]", "{\"a\":1", "\"\\x\"", "[-]", "[1.]", "[1e]", "tru", ""}) {
      assertThrows(HeaderText.SyntaxException.class, () -> Json.parse(bad), bad);
    }
  }

  @Test
  void refusesDuplicateKeysAndDeepNesting() {
    HeaderText.SyntaxException dup = assertThrows(HeaderText.SyntaxException.class, () -> Json.parse("{\"a\":1,\"a\":2}"));
    assertTrue(dup.getMessage().contains("duplicate key \"a\""), dup.getMessage());
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    HeaderText.SyntaxException tooDeep = assertThrows(HeaderText.SyntaxException.class, () -> Json.parse(deep));
    assertTrue(tooDeep.getMessage().contains("nested deeper than " + Json.MAX_DEPTH), tooDeep.getMessage());
  }

  @Test
  void quotesWhatItWritesSoThatItReadsBack() throws Exception {
    String s = "a\"b\\c\u0001\n\u00e9";
    assertEquals(s, Json.parse(Json.quote(s)));
  }
}
