package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Python-literal reader under the .npy header. */
class PyLiteralTest {
  @Test
  void readsTheLiteralsNumPyWrites() throws Exception {
    Map<?, ?> m = (Map<?, ?>) PyLiteral.parse("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }   \n");
    assertEquals("<f4", m.get("descr"));
    assertEquals(Boolean.FALSE, m.get("fortran_order"));
    assertEquals(List.of(2L, 3L), m.get("shape"));
    assertEquals(List.of(), PyLiteral.parse("()"));
    assertEquals(List.of(5L), PyLiteral.parse("(5,)"));
    assertEquals(List.of(5L), PyLiteral.parse("(5L,)"), "Python 2 long suffix in old files");
    assertEquals(java.util.Arrays.asList("a\"b", true, null), PyLiteral.parse("[\"a\\\"b\", True, None]"));
  }

  @Test
  void refusesAnythingElse() {
    for (String bad : new String[] {"{'a': 1", "(1 2)", "(,)", "{'a' 1}", "__import__('os')", "{'a': 1, 'a': 2}",
        "'unterminated", "99999999999999999999", "1.5", "{(1,): 2} x", "{[1]: 2}", "'\\n'"}) {
      assertThrows(HeaderText.SyntaxException.class, () -> PyLiteral.parse(bad), bad);
    }
    assertThrows(HeaderText.SyntaxException.class, () -> PyLiteral.parse("(".repeat(10_000)));
  }
}
