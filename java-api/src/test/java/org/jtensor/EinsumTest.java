package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtensor.autograd.GradCheck;
import org.jtensor.io.Tensors;
import org.junit.jupiter.api.Test;

/** einsum against PyTorch 2.13's results (resources/einsum/fixtures.pt, from make_fixtures.py), gradchecks, refusals. */
class EinsumTest extends ScopedTest {
  @Test
  void everyEquationMatchesPyTorch() throws Exception {
    Map<?, ?> f = (Map<?, ?>) Tensors.loadObject(Path.of(EinsumTest.class.getResource("/einsum/fixtures.pt").toURI()));
    try {
      List<?> equations = (List<?>) f.get("equations");
      for (int i = 0; i < equations.size(); i++) {
        String eq = (String) equations.get(i);
        List<Tensor> ops = new ArrayList<>();
        for (int k = 0; f.containsKey(i + ".in" + k); k++) ops.add((Tensor) f.get(i + ".in" + k));
        Tensor want = (Tensor) f.get(i + ".out"), got = Tensor.einsum(eq, ops.toArray(new Tensor[0]));
        assertArrayEquals(want.shape(), got.shape(), eq);
        assertArrayEquals(want.toDoubleArray(), got.toDoubleArray(), 1e-12, eq);
        List<Tensor> leaves = new ArrayList<>();
        for (Tensor t : ops) leaves.add(t.detach().clone().requiresGrad_());
        GradCheck.check(in -> Tensor.einsum(eq, in.toArray(new Tensor[0])), leaves);
      }
    } finally {
      Tensors.closeAll(f);
    }
  }

  @Test
  void badEquationsAreRefusedWithPyTorchsWords() {
    Tensor a = Tensor.ones(3, 4), b = Tensor.ones(5, 6);
    String[][] cases = {
        {"ij,jk->ik", "subscript j has size 5 for operand 1 which does not broadcast with previously seen size 4"},
        {"ij->ik", "output subscript k does not appear in the equation for any input operand"},
        {"ij,jk->ii", "output subscript i appears more than once in the output"},
        {"ijk,jk", "does not match the number of dimensions (2) for operand 0 and no ellipsis was given"},
        {"ij", "the number of subscripts in the equation (1) does not match the number of operands (2)"},
        {"i1,jk", "subscripts must be in [a-zA-Z]"},
    };
    for (String[] c : cases) {
      Tensor[] ops = c[0].contains(",") || c[0].equals("ij") ? new Tensor[] {a, b} : new Tensor[] {a};
      String m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum(c[0], ops)).getMessage();
      assertTrue(m.startsWith("einsum(): ") && m.contains(c[1]), c[0] + ": " + m);
    }
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ii", Tensor.ones(3, 4))).getMessage()
        .contains("subscript i is repeated for operand 0 but the sizes don't match, 4 != 3"));
    Tensor x = Tensor.randn(new long[] {2, 3, 4}, new Generator(1));
    assertArrayEquals(x.sum(0).toDoubleArray(), Tensor.einsum("...ij->ij", x).toDoubleArray(), 1e-6, "ellipsis dims left out are summed");
  }
}
