package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.LeakLevel;
import org.junit.jupiter.api.Test;

/** Issue 21 point 2: the error of a closed tensor's use says what closed it and how to keep it. */
class ClosedTensorMessageTest {
  private static Tensor madeInAScope() {
    try (TensorScope s = TensorScope.open()) {
      return Tensor.ones(3);  // not kept: the scope closes it on the way out
    }
  }

  private static boolean mentions(Throwable t, String method) {
    return Arrays.stream(t.getStackTrace()).anyMatch(e -> e.getMethodName().equals(method));
  }

  @Test
  void aTensorUsedAfterItsScopeNamesTheScopeAndKeep() {
    try (Tensor one = Tensor.ones(3)) {
      Tensor t = madeInAScope();
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.add(one));
      assertTrue(e.getMessage().startsWith("add(): tensor is closed: the TensorScope it was made in has closed"), e.getMessage());
      assertTrue(e.getMessage().contains("scope.keep(t)"), e.getMessage());
      assertTrue(e.getMessage().contains("-Djtensor.leakDetection=PARANOID"), e.getMessage());
      assertNull(e.getCause(), "no site recorded under SIMPLE");
    }
  }

  @Test
  void aTensorUsedAfterCloseSaysCloseWasCalled() {
    Tensor t = Tensor.ones(3);
    t.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.sum());
    assertEquals("sum(): tensor is closed: close() was called on it (run with -Djtensor.leakDetection=PARANOID to see where)",
        e.getMessage());
  }

  @Test
  void paranoidNamesWhereTheScopeWasOpenedAndWhereCloseRan() {
    LeakLevel level = LeakDetector.level();
    LeakDetector.setLevel(LeakLevel.PARANOID);
    try {
      Tensor t = madeInAScope();
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.mul(2.0));
      assertNotNull(e.getCause(), e.getMessage());
      assertTrue(mentions(e.getCause(), "madeInAScope"), "the cause is where the scope was opened");
      assertTrue(e.getMessage().contains("the cause shows where that scope was opened"), e.getMessage());

      Tensor u = Tensor.ones(2);
      u.close();
      IllegalStateException f = assertThrows(IllegalStateException.class, () -> u.neg());
      assertTrue(f.getMessage().startsWith("neg(): tensor is closed: close() was called on it (the cause shows where)"), f.getMessage());
      assertTrue(mentions(f.getCause(), "paranoidNamesWhereTheScopeWasOpenedAndWhereCloseRan"));
    } finally {
      LeakDetector.setLevel(level);
    }
  }
}
