package org.jtensor.io;

import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.ScopedTest;

/** File-format tests: each runs in a scope that closes every tensor it made (loaded ones included). */
abstract class IoTest extends ScopedTest {
  /** [[0, 1, -2], [3, 100, 127]] as dtype (absolute values for bool and uint8, which cannot hold -2). */
  static Tensor sample(DType dtype) {
    boolean signed = dtype != DType.BOOL && dtype != DType.UINT8;
    return Tensor.fromArray(Fixtures.everyDtypeValues(signed), 2, 3).to(dtype);
  }

  static boolean sameStorage(Tensor a, Tensor b) {
    try (Storage x = a.untypedStorage(); Storage y = b.untypedStorage()) {
      return x.isAliasOf(y);
    }
  }

  static boolean readOnly(Tensor t) {
    try (Storage s = t.untypedStorage()) {
      return s.isReadOnly();
    }
  }

  static void closeAll(Map<String, Tensor> m) {
    for (Tensor t : m.values()) t.close();
  }
}
