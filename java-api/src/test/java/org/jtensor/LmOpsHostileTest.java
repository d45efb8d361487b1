package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.jtensor.autograd.GradCheck;
import org.jtensor.io.Tensors;
import org.jtensor.optim.Adam;
import org.jtensor.optim.AdamW;
import org.jtensor.optim.CosineAnnealingLR;
import org.jtensor.optim.LRScheduler;
import org.jtensor.optim.LambdaLR;
import org.jtensor.optim.LinearLR;
import org.jtensor.optim.OneCycleLR;
import org.jtensor.optim.Optimizer;
import org.jtensor.optim.SGD;
import org.jtensor.optim.SequentialLR;
import org.jtensor.optim.StepLR;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile inputs for the language-model ops (einsum, multinomial, repeatInterleave, baddbmm),
 * optimizer state dicts, saveObject and the LR schedulers. Expected values and messages come from
 * PyTorch 2.13.0+cpu, pasted in. Most cases were defects a hostile pass found (a half-applied
 * loadStateDict, size-0 labels, tiny and huge multinomial weights, stack overflows in saveObject,
 * schedulers' negative rates and refused steps, ...), fixed since; the comment above each gives
 * PyTorch's behaviour (or the project rule it broke).
 */
class LmOpsHostileTest extends ScopedTest {
  @TempDir Path dir;

  private static Tensor ar(long n, long... shape) {
    return Tensor.arange(0, n).to(DType.FLOAT64).reshape(shape);
  }

  /** 1, 2, 3, ... in shape (float64). */
  private static Tensor ar1(long n, long... shape) {
    return Tensor.arange(1, n + 1).to(DType.FLOAT64).reshape(shape);
  }

  private static Tensor rnd(long seed, long... shape) {
    return Tensor.randn(shape, DType.FLOAT64, new Generator(seed)).requiresGrad_();
  }

  private static String msg(Throwable t) {
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  // =============================================================== einsum

  private record Case(String eq, Tensor[] ops, long[] shape, double[] want) {}

  private static Case c(String eq, long[] shape, double[] want, Tensor... ops) {
    return new Case(eq, ops, shape, want);
  }

  private static long[] s(long... v) {
    return v;
  }

  private static double[] d(double... v) {
    return v;
  }

  @Test
  void einsumOddButValidEquationsMatchPyTorch() {
    List<Case> cases = List.of(
        c(" i j -> j i ", s(3, 2), d(0, 3, 1, 4, 2, 5), ar(6, 2, 3)),                    // spaces anywhere
        c("i...j->ij", s(2, 3), d(0, 1, 2, 3, 4, 5), ar(6, 2, 3)),                        // ellipsis of 0 dims, in the middle
        c("...", s(), d(3), Tensor.scalar(3.0)),
        c("", s(), d(3), Tensor.scalar(3.0)),
        c("->", s(), d(3), Tensor.scalar(3.0)),
        c(",i->i", s(3), d(0, 3, 6), Tensor.scalar(3.0).to(DType.FLOAT64), ar(3, 3)),     // 0-dim operand
        c(",", s(), d(6), Tensor.scalar(3.0), Tensor.scalar(2.0)),
        c("ij->...ij", s(2, 3), d(0, 1, 2, 3, 4, 5), ar(6, 2, 3)),                        // output ellipsis with no input one
        c("ii->", s(), d(0), Tensor.ones(new long[] {0, 0}, DType.FLOAT64)),
        c("iij->ji", s(3, 2), d(0, 9, 1, 10, 2, 11), ar(12, 2, 2, 3)),
        c("iji->ij", s(2, 3), d(0, 2, 4, 7, 9, 11), ar(12, 2, 3, 2)),
        c("iii->i", s(3), d(0, 13, 26), ar(27, 3, 3, 3)),
        c("Aa,aB->AB", s(2, 4), d(20, 23, 26, 29, 56, 68, 80, 92), ar(6, 2, 3), ar(12, 3, 4)),
        c("ba,Ab", s(4, 2), d(10, 13, 28, 40, 46, 67, 64, 94), ar(6, 3, 2), ar(12, 4, 3)),   // implicit: 'A' sorts before 'a'
        c("bZ,Zb", s(), d(50), ar(6, 3, 2), ar(6, 2, 3)),
        c("i,i,i->", s(), d(9), ar(3, 3), ar(3, 3), ar(3, 3)),
        c("ij,j,jk->ik", s(2, 2), d(18, 23, 48, 62), ar(6, 2, 3), ar(3, 3), ar(6, 3, 2)),
        c("ij,ij->ij", s(3, 4), d(0, 0, 0, 0, 0, 1, 2, 3, 0, 2, 4, 6), ar(3, 3, 1), ar(4, 1, 4)),   // size-1 broadcast both ways
        c("ij,jk->ik", s(3, 2), d(0, 0, 12, 16, 24, 32), ar(3, 3, 1), ar(8, 4, 2)),               // contracted label of size 1 vs 4
        c("...i,...i->...", s(2, 4), d(5, 14, 23, 32, 14, 50, 86, 122), ar(6, 2, 1, 3), ar(12, 4, 3)),
        c("b...,b...->...", s(3), d(3, 4, 5), ar(2, 2), ar(6, 2, 3)),
        c("i...->...", s(3), d(2, 2, 2), Tensor.ones(new long[] {2, 3}, DType.FLOAT64)),
        c("a...b,...b->a...", s(2, 3), d(14, 38, 62, 86, 110, 134), ar(24, 2, 3, 4), ar(4, 4)),
        c("...ii->...i", s(2, 3), d(0, 4, 8, 9, 13, 17), ar(18, 2, 3, 3)),
        c("i...i->...", s(2), d(21, 30), ar(18, 3, 2, 3)),
        c("ij,ij->", s(), d(50), ar(6, 2, 3).transpose(0, 1), ar(6, 3, 2)),             // non-contiguous
        c("ij,ji->i", s(3), d(3, 3, 3), Tensor.ones(new long[] {3, 1}, DType.FLOAT64), Tensor.ones(new long[] {3, 3}, DType.FLOAT64)),
        c("i,i->", s(), d(0), Tensor.ones(new long[] {0}, DType.FLOAT64), Tensor.ones(new long[] {0}, DType.FLOAT64)),
        c("ij,jk->ik", s(2, 3), d(0, 0, 0, 0, 0, 0), Tensor.ones(new long[] {2, 0}, DType.FLOAT64), Tensor.ones(new long[] {0, 3}, DType.FLOAT64)),
        c("...->", s(), d(6), Tensor.ones(new long[] {1, 2, 3}, DType.FLOAT64)),
        // size-1 labels broadcast across three operands, not only neighbours
        c("i,j,i->ij", s(3, 2), d(1, 2, 2, 4, 3, 6), ar1(1, 1), ar1(2, 2), ar1(3, 3)),
        c("i,j,i->j", s(2), d(6, 12), ar1(1, 1), ar1(2, 2), ar1(3, 3)),
        c("ij,jk,ki->", s(), d(78), ar1(2, 2, 1), ar1(3, 1, 3), ar1(6, 3, 2)),
        c("bij,bjk->bik", s(4, 2, 2), d(22, 28, 49, 64, 58, 64, 139, 154, 94, 100, 229, 244, 130, 136, 319, 334), ar1(6, 1, 2, 3), ar1(24, 4, 3, 2)),
        c("...ij,...jk", s(2, 1, 2, 2), d(22, 28, 49, 64, 58, 64, 139, 154), ar1(6, 2, 3), ar1(12, 2, 1, 3, 2)),
        c("i,i,i->i", s(3), d(1, 2, 3), ar1(1, 1), ar1(3, 3), ar1(1, 1)),
        c("ii,i->i", s(2), d(1, 4), ar1(4, 2, 2), ar1(1, 1)),
        c("ab,ab,ab->ab", s(2, 3), d(1, 2, 3, 2, 4, 6), ar1(1, 1, 1), ar1(2, 2, 1), ar1(3, 1, 3)),
        c("...,i->...i", s(0, 1), d(), Tensor.ones(new long[] {0}, DType.FLOAT64), ar1(1, 1)));
    for (Case k : cases) {
      Tensor got = assertDoesNotThrow(() -> Tensor.einsum(k.eq, k.ops), k.eq);
      assertArrayEquals(k.shape, got.shape(), k.eq);
      assertArrayEquals(k.want, got.to(DType.FLOAT64).toDoubleArray(), 1e-12, k.eq);
    }
    // integer dtypes: sums promote to int64 as torch.sum does, contractions keep the dtype
    Tensor tr = Tensor.einsum("ii", Tensor.arange(9).reshape(3, 3));
    assertEquals(DType.INT64, tr.dtype());
    assertEquals(12L, tr.itemLong());
    Tensor rows = Tensor.einsum("ij->i", Tensor.arange(6).reshape(2, 3).to(DType.INT32));
    assertEquals(DType.INT64, rows.dtype());
    assertArrayEquals(new long[] {3, 12}, rows.toLongArray());
    Tensor mm = Tensor.einsum("ij,jk->ik", Tensor.arange(6).reshape(2, 3).to(DType.INT32), Tensor.arange(6).reshape(3, 2).to(DType.INT32));
    assertEquals(DType.INT32, mm.dtype());
    assertArrayEquals(new long[] {10, 13, 28, 40}, mm.toLongArray());
    Tensor x = Tensor.ones(2, 3);
    Tensor same = Tensor.einsum("ij->ij", x);
    assertTrue(same != x, "a new handle, even for the identity");
  }

  @Test
  void einsumGradientsThroughDiagonalsBroadcastsAndChains() {
    GradCheck.check(t -> Tensor.einsum("iij,jk->ik", t.get(0), t.get(1)), List.of(rnd(1, 3, 3, 2), rnd(2, 2, 4)));
    GradCheck.check(t -> Tensor.einsum("i...j,j...->...i", t.get(0), t.get(1)), List.of(rnd(3, 2, 1, 3), rnd(4, 3, 4, 1)));
    GradCheck.check(t -> Tensor.einsum("ij,ij->ij", t.get(0), t.get(1)), List.of(rnd(5, 3, 1), rnd(6, 1, 4)));
    GradCheck.check(t -> Tensor.einsum("ij,jk,kl,li->", t.get(0), t.get(1), t.get(2), t.get(3)),
        List.of(rnd(7, 2, 3), rnd(8, 3, 4), rnd(9, 4, 5), rnd(10, 5, 2)));
    GradCheck.check(t -> Tensor.einsum(",ij->ji", t.get(0), t.get(1)), List.of(rnd(11).reshape().detach().requiresGrad_(), rnd(12, 2, 3)));
    GradCheck.check(t -> Tensor.einsum("ii->", t.get(0)), List.of(rnd(13, 4, 4)));
    Tensor w = rnd(14, 3);
    GradCheck.check(t -> Tensor.einsum("i,i->", t.get(0), t.get(0)), List.of(w));   // the same leaf twice
  }

  @Test
  void einsumRefusesWithPyTorchsRules() {
    Tensor a = Tensor.ones(2, 3);
    String[][] cases = {
        {"i\tj->ji", "invalid subscript given at index 1 in the equation string, subscripts must be in [a-zA-Z]"},   // PyTorch: tab is not a space
        {"ij->ii", "output subscript i appears more than once in the output"},
        {"ij->k", "output subscript k does not appear in the equation for any input operand"},
        {"...i...->i", "more than one ellipsis"},
        {"ijk", "does not match the number of dimensions (2) for operand 0 and no ellipsis was given"},
        {"ijk...", "is more than the number of dimensions (2) for operand 0"},
        {"ii", "subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"},
        {"ij->\u00e9", "subscripts must be in [a-zA-Z]"},
    };
    for (String[] k : cases) {
      String m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum(k[0], a), k[0]).getMessage();
      assertTrue(m.startsWith("einsum(): ") && m.contains(k[1]), k[0] + " -> " + m);
    }
    assertThrows(IllegalArgumentException.class, () -> Tensor.einsum(null, a));
    assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("i"));
    assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ij,jk", a, null));
    String m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("...,...->...", Tensor.ones(2), Tensor.ones(3))).getMessage();
    assertTrue(m.startsWith("einsum(): "), m);
  }

  // PyTorch: a size-0 dim broadcasts against a size-1 dim of the same label (size 1 broadcasts to 0):
  // einsum('i,i->i', ones(0), ones(1)) -> shape (0,); einsum('i,i', ...) -> tensor(0.);
  // einsum('ij,jk->ik', ones(2,0), ones(1,3)) -> zeros(2,3). jtensor: checkSizes accepts the pair,
  // then contract() takes max(0, 1) = 1 as the label's size and expand() fails with an error naming expand().
  @Test
  void einsumSizeZeroAgainstSizeOneLabel() {
    Tensor r = assertDoesNotThrow(() -> Tensor.einsum("i,i->i", Tensor.ones(0), Tensor.ones(1)));
    assertArrayEquals(new long[] {0}, r.shape());
    Tensor dot = assertDoesNotThrow(() -> Tensor.einsum("i,i", Tensor.ones(0), Tensor.ones(1)));
    assertEquals(0.0, dot.item());
    Tensor mm = assertDoesNotThrow(() -> Tensor.einsum("ij,jk->ik", Tensor.ones(2, 0), Tensor.ones(1, 3)));
    assertArrayEquals(new long[] {2, 3}, mm.shape());
    assertArrayEquals(new double[6], mm.to(DType.FLOAT64).toDoubleArray(), 0);
    Tensor ell = assertDoesNotThrow(() -> Tensor.einsum("...,...->...", Tensor.ones(1, 0), Tensor.ones(1, 1)));
    assertArrayEquals(new long[] {1, 0}, ell.shape());
  }

  // PyTorch refuses an ellipsis broken by spaces: einsum('i. ..j->ij', x) raises "einsum(): found '.' for
  // operand 0 that is not part of any ellipsis". jtensor deletes every space first, so "i. ..j" becomes
  // "i...j" and is accepted.
  @Test
  void einsumEllipsisSplitBySpacesIsAccepted() {
    Tensor x = ar(6, 2, 3);
    String m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("i. ..j->ij", x)).getMessage();
    assertTrue(m.contains("einsum(): found '.' for operand 0 that is not part of any ellipsis"), m);
  }

  // PyTorch's words: "i..j->ij" -> "einsum(): found '.' for operand 0 that is not part of any ellipsis";
  // "ij->i->j" -> "invalid subscript given at index 5" (the index in the equation as written);
  // " i j1" -> "invalid subscript given at index 4". jtensor reports the stray '.' as an invalid subscript
  // and takes the index from the equation with spaces removed and by the first occurrence of the char.
  @Test
  void einsumMessagesDifferFromPyTorch() {
    Tensor x = ar(6, 2, 3);
    String m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("i..j->ij", x)).getMessage();
    assertTrue(m.contains("found '.' for operand 0 that is not part of any ellipsis"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("ij->i->j", x)).getMessage();
    assertTrue(m.contains("invalid subscript given at index 5"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum(" i j1", ar(6, 2, 3, 1))).getMessage();
    assertTrue(m.contains("invalid subscript given at index 4"), m);
  }

  // PyTorch: einsum('ij,jk->ik', float32, float64) raises "expected scalar type Float but found Double";
  // jtensor refuses too but names bmm(), an op the caller never called ("bmm(): expected m1 and m2 to have
  // the same dtype"). And where PyTorch needs no matrix product it promotes: einsum('i,i->i', ones(3) f32,
  // ones(3) f64) -> float64 [1, 1, 1]; einsum('i,j->ij', f32, int64) -> float32 ones(3, 3). jtensor refuses both.
  // jtensor promotes every mixed equation (a deliberate superset of PyTorch, which refuses this one)
  @Test
  void einsumPromotesMixedDtypesEvenWhereAMatrixProductIsNeeded() {
    Tensor f = Tensor.ones(2, 3), dbl = Tensor.ones(new long[] {3, 2}, DType.FLOAT64);
    Tensor r = Tensor.einsum("ij,jk->ik", f, dbl);
    assertEquals(DType.FLOAT64, r.dtype());
    assertArrayEquals(new double[] {3, 3, 3, 3}, r.toDoubleArray(), 0);
  }

  // (see above) PyTorch promotes where einsum needs no matrix product: 'i,i->i' float32 x float64 -> float64,
  // 'i,j->ij' float32 x int64 -> float32. jtensor always goes through bmm and refuses.
  @Test
  void einsumMixedDtypeElementwiseRefused() {
    Tensor r = assertDoesNotThrow(() -> Tensor.einsum("i,i->i", Tensor.ones(3), Tensor.ones(new long[] {3}, DType.FLOAT64)));
    assertEquals(DType.FLOAT64, r.dtype());
    Tensor o = assertDoesNotThrow(() -> Tensor.einsum("i,j->ij", Tensor.ones(3), Tensor.ones(new long[] {3}, DType.INT64)));
    assertEquals(DType.FLOAT32, o.dtype());
  }

  // =============================================================== multinomial

  @Test
  void multinomialEdgeCasesMatchPyTorch() {
    Generator g = new Generator(0);
    assertArrayEquals(new long[] {1, 1, 1}, Tensor.fromArray(new float[] {0, 1, 0}).to(DType.FLOAT16).multinomial(3, true, g).toLongArray());
    assertArrayEquals(new long[] {1, 1, 1}, Tensor.fromArray(new float[] {0, 1, 0}).to(DType.BFLOAT16).multinomial(3, true, g).toLongArray());
    assertArrayEquals(new long[] {0, 0, 0}, Tensor.fromArray(new float[] {1e-45f, 0}).multinomial(3, true, g).toLongArray(), "subnormal float32");
    assertArrayEquals(new long[] {1, 1, 1}, Tensor.fromArray(new double[] {0, Double.MIN_VALUE, 0}).multinomial(3, true, g).toLongArray());
    assertArrayEquals(new long[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, Tensor.fromArray(new float[] {0, 1, 0}).multinomial(10, true, g).toLongArray());
    assertArrayEquals(new long[] {1, 1}, Tensor.fromArray(new double[] {-0.0, 1}).multinomial(2, true, g).toLongArray());
    Tensor nc = Tensor.fromArray(new float[] {1, 0, 0, 1, 0, 0}, 3, 2).transpose(0, 1);   // rows [1,0,0] and [0,1,0]
    assertArrayEquals(new long[] {0, 0, 1, 1}, nc.multinomial(2, true, g).toLongArray());
    Tensor none = Tensor.ones(0, 3).multinomial(2, true, g);
    assertArrayEquals(new long[] {0, 2}, none.shape());
    assertEquals(DType.INT64, none.dtype());
    assertArrayEquals(new long[] {0, 2}, Tensor.ones(0, 3).multinomial(2, false, g).shape());
    Tensor big = Tensor.fromArray(new float[] {3e38f, 3e38f}).multinomial(4, true, g);   // sums past float32's max
    for (long v : big.toLongArray()) assertTrue(v == 0 || v == 1);
    Tensor h = Tensor.fromArray(new float[] {60000, 60000}).to(DType.FLOAT16).multinomial(4, true, g);  // sums past float16's max
    for (long v : h.toLongArray()) assertTrue(v == 0 || v == 1);
    String[][] refusals = {
        {"zero row", "invalid multinomial distribution (sum of probabilities <= 0)"},
        {"0 cats", "invalid multinomial distribution (sum of probabilities <= 0)"},
        {"3d", "prob_dist must be 1 or 2 dim"},
        {"0d", "prob_dist must be 1 or 2 dim"},
        {"inf", "probability tensor contains either `inf`, `nan` or element < 0"},
        {"f16 inf", "probability tensor contains either `inf`, `nan` or element < 0"},
        {"int", "only supports floating-point dtypes for input"},
        {"0 samples", "cannot sample n_sample <= 0 samples"},
    };
    for (String[] k : refusals) {
      Tensor w = switch (k[0]) {
        case "zero row" -> Tensor.fromArray(new float[] {1, 2, 0, 0}, 2, 2);
        case "0 cats" -> Tensor.ones(2, 0);
        case "3d" -> Tensor.ones(1, 1, 3);
        case "0d" -> Tensor.scalar(1.0);
        case "inf" -> Tensor.fromArray(new float[] {Float.POSITIVE_INFINITY, 1});
        case "f16 inf" -> Tensor.fromArray(new float[] {Float.POSITIVE_INFINITY, 1}).to(DType.FLOAT16);
        case "int" -> Tensor.arange(3);
        default -> Tensor.ones(3);
      };
      long n = k[0].equals("0 samples") ? 0 : 1;
      for (boolean rep : new boolean[] {true, false}) {
        String m = assertThrows(IllegalArgumentException.class, () -> w.multinomial(n, rep, new Generator(0)), k[0]).getMessage();
        String want = k[0].equals("0 cats") && !rep ? "cannot sample n_sample > prob_dist.size(-1) samples without replacement" : k[1];
        assertTrue(m.startsWith("multinomial(): ") && m.contains(want), k[0] + " -> " + m);
      }
    }
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(3).multinomial(1, true, null));
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(2).multinomial(Long.MAX_VALUE, true, new Generator(0)));
  }

  @Test
  void multinomialIsReproducibleAndFollowsHalfPrecisionWeights() {
    Tensor w = Tensor.rand(new long[] {4, 50}, new Generator(3));
    for (boolean rep : new boolean[] {true, false}) {
      long[] a = w.multinomial(20, rep, new Generator(7)).toLongArray(), b = w.multinomial(20, rep, new Generator(7)).toLongArray();
      assertArrayEquals(a, b, "same seed, same draws (replacement=" + rep + ")");
      assertFalse(Arrays.equals(a, w.multinomial(20, rep, new Generator(8)).toLongArray()), "another seed, other draws");
    }
    Generator g = new Generator(11);
    long[] first = w.multinomial(5, false, g).toLongArray(), second = w.multinomial(5, false, g).toLongArray();
    assertFalse(Arrays.equals(first, second), "the generator advances");
    Tensor half = Tensor.fromArray(new float[] {1, 3}).to(DType.FLOAT16);
    int n = 8000;
    long ones = Arrays.stream(half.multinomial(n, true, new Generator(5)).toLongArray()).filter(v -> v == 1).count();
    assertEquals(0.75 * n, ones, 5 * Math.sqrt(n * 0.75 * 0.25));
  }

  // PyTorch: multinomial(tensor([1e308, 1e308], float64), 4, True) samples ({0, 1} each); with [1e308, 3e307]
  // and 4000 draws it picked 0 3093 times; without replacement [1e308]*3 -> a permutation ([2, 1, 0]).
  // jtensor sums the row in float64, the sum overflows to inf, and it refuses with "probability tensor
  // contains either `inf`, `nan` or element < 0" although no element is inf.
  @Test
  void multinomialHugeFiniteFloat64Weights() {
    Tensor w = Tensor.fromArray(new double[] {1e308, 1e308});
    long[] r = assertDoesNotThrow(() -> w.multinomial(4, true, new Generator(0)).toLongArray());
    for (long v : r) assertTrue(v == 0 || v == 1);
    long[] p = assertDoesNotThrow(() -> Tensor.fromArray(new double[] {1e308, 1e308, 1e308}).multinomial(3, false, new Generator(0)).toLongArray());
    assertEquals(List.of(0L, 1L, 2L), Arrays.stream(p).sorted().boxed().toList());
  }

  // PyTorch: multinomial(tensor([0, 1e-310, 0], float64), 1, replacement=False) returns 1 on all of 300
  // seeds (a zero weight is never drawn); [1e-310]*3 draws each category about a third of the time
  // ({0: 92, 1: 107, 2: 101}). jtensor's race E / w overflows to +inf for w = 1e-310, ties with the
  // zero-weight categories' +inf and the sort then returns index 0: 297 of 300 draws were the
  // zero-weight category 0, and the uniform case drew 0 294 times.
  @Test
  void multinomialTinyFloat64WeightsWithoutReplacementDrawZeroWeightCategories() {
    Generator g = new Generator(1);
    Tensor w = Tensor.fromArray(new double[] {0, 1e-310, 0});
    Map<Long, Integer> counts = new TreeMap<>();
    for (int i = 0; i < 100; i++) counts.merge(w.multinomial(1, false, g).toLongArray()[0], 1, Integer::sum);
    assertEquals(Map.of(1L, 100), counts, "only category 1 has weight");
    Tensor u = Tensor.fromArray(new double[] {1e-310, 1e-310, 1e-310});
    Map<Long, Integer> uc = new TreeMap<>();
    for (int i = 0; i < 150; i++) uc.merge(u.multinomial(1, false, g).toLongArray()[0], 1, Integer::sum);
    for (long k = 0; k < 3; k++) assertTrue(uc.getOrDefault(k, 0) > 20, "equal weights, about 50 each: " + uc);
  }

  // PyTorch: multinomial(ones(0, 0), 2, True) -> an empty int64 tensor of shape (0, 2) (no rows, nothing
  // to check). jtensor refuses: "invalid multinomial distribution (sum of probabilities <= 0)".
  @Test
  void multinomialNoRowsAndNoCategories() {
    Tensor r = assertDoesNotThrow(() -> Tensor.ones(0, 0).multinomial(2, true, new Generator(0)));
    assertArrayEquals(new long[] {0, 2}, r.shape());
  }

  // =============================================================== repeatInterleave and baddbmm

  @Test
  void repeatInterleaveEdgeCasesMatchPyTorch() {
    Tensor x = ar(6, 2, 3);
    assertArrayEquals(new double[] {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}, x.repeatInterleave(2, -2).toDoubleArray(), 0);
    assertArrayEquals(new long[] {2, 0}, x.repeatInterleave(0, 1).shape());
    assertArrayEquals(new double[] {5, 5, 5}, Tensor.scalar(5.0).repeatInterleave(3).to(DType.FLOAT64).toDoubleArray(), 0);
    assertArrayEquals(new double[] {0, 1, 1, 2, 2, 2, 3, 4, 4, 5, 5, 5}, x.repeatInterleave(Tensor.fromArray(new int[] {1, 2, 3}), 1).toDoubleArray(), 0);
    assertArrayEquals(new double[] {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}, x.repeatInterleave(Tensor.fromArray(new long[] {2}), 1).toDoubleArray(), 0);
    assertArrayEquals(new double[] {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}, x.repeatInterleave(Tensor.scalar(2L), -1).toDoubleArray(), 0);
    assertArrayEquals(new long[] {2, 0}, Tensor.ones(2, 0).repeatInterleave(Tensor.fromArray(new long[0]), 1).shape());
    assertArrayEquals(new double[] {0, 3, 2, 5, 2, 5}, x.transpose(0, 1).repeatInterleave(Tensor.fromArray(new long[] {1, 0, 2}), 0).toDoubleArray(), 0);
    assertArrayEquals(new long[] {0, 0, 1, 1, 2, 2}, Tensor.arange(3).repeatInterleave(2).toLongArray());
    assertArrayEquals(new boolean[] {true, true, false, false}, Tensor.fromArray(new boolean[] {true, false}).repeatInterleave(2).toBooleanArray());
    String[][] refusals = {
        {"dim 2", "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
        {"float repeats", "repeats"},
        {"bool repeats", "repeats"},
        {"2-D repeats", "repeats"},
        {"negative in tensor", "repeats can not be negative"},
        {"negative scalar", "repeats can not be negative"},
        {"wrong length", "repeats must have the same size as input along dim, but got repeats.size(0) = 2 and input.size(1) = 3"},
        {"empty vs 1", "repeats.size(0) = 0 and input.size(1) = 1"},
    };
    for (String[] k : refusals) {
      String m = assertThrows(IllegalArgumentException.class, () -> {
        switch (k[0]) {
          case "dim 2" -> x.repeatInterleave(2, 2);
          case "float repeats" -> x.repeatInterleave(Tensor.fromArray(new float[] {1, 2, 3}), 1);
          case "bool repeats" -> x.repeatInterleave(Tensor.fromArray(new boolean[] {true, false, true}), 1);
          case "2-D repeats" -> x.repeatInterleave(Tensor.fromArray(new long[] {1, 2, 3}, 1, 3), 1);
          case "negative in tensor" -> x.repeatInterleave(Tensor.fromArray(new long[] {1, -1, 1}), 1);
          case "negative scalar" -> x.repeatInterleave(-1, 1);
          case "wrong length" -> x.repeatInterleave(Tensor.fromArray(new long[] {1, 2}), 1);
          default -> Tensor.ones(2, 1).repeatInterleave(Tensor.fromArray(new long[0]), 1);
        }
      }, k[0]).getMessage();
      assertTrue(m.startsWith("repeatInterleave(): ") && m.contains(k[1]), k[0] + " -> " + m);
    }
  }

  // PyTorch: tensor(5.).repeat_interleave(3, dim=0) (and dim=-1, and with a tensor of repeats) raises
  // IndexError "Dimension out of range (expected to be in range of [-1, 0], ...)" / "Dimension specified as 0
  // but tensor has no dimensions". jtensor throws java.lang.ArrayIndexOutOfBoundsException (out[d] on an
  // empty shape array).
  @Test
  void repeatInterleaveZeroDimTensorWithDim() {
    Tensor s = Tensor.scalar(5.0);
    for (int dim : new int[] {0, -1}) {
      Throwable t = assertThrows(Throwable.class, () -> s.repeatInterleave(3, dim));
      assertTrue(t instanceof IllegalArgumentException && t.getMessage().startsWith("repeatInterleave(): "), msg(t));
    }
    Throwable t = assertThrows(Throwable.class, () -> s.repeatInterleave(Tensor.fromArray(new long[] {2}), 0));
    assertTrue(t instanceof IllegalArgumentException, msg(t));
  }

  // PyTorch accepts only int32/int64 repeats: int16, int8 and uint8 raise
  // NotImplementedError "repeat_interleave_cpu" not implemented for 'Short' / 'Char' / 'Byte'. jtensor
  // accepts them (and a uint8 repeats of 200 would read as 200, an int8 one of -56 as negative).
  @Test
  void repeatInterleaveAcceptsNarrowIntegerRepeats() {
    Tensor x = ar(6, 2, 3);
    for (DType dt : new DType[] {DType.INT16, DType.INT8, DType.UINT8}) {
      Tensor rep = Tensor.fromArray(new long[] {1, 2, 3}).to(dt);
      assertThrows(IllegalArgumentException.class, () -> x.repeatInterleave(rep, 1), dt.toString());
    }
  }

  // PyTorch: repeat_interleave(2**62, dim=1) raises RuntimeError "numel: integer multiplication overflow".
  // Project rule: an IllegalArgumentException naming the op. jtensor: java.lang.ArithmeticException
  // "long overflow" / "integer overflow" with no op name.
  @Test
  void repeatInterleaveOverflowIsAnArithmeticException() {
    Tensor x = ar(6, 2, 3);
    Throwable t = assertThrows(Throwable.class, () -> x.repeatInterleave(Long.MAX_VALUE, 1));
    assertTrue(t instanceof IllegalArgumentException && t.getMessage().startsWith("repeatInterleave(): "), msg(t));
    t = assertThrows(Throwable.class, () -> x.repeatInterleave(Tensor.fromArray(new long[] {Long.MAX_VALUE, Long.MAX_VALUE, 1}), 1));
    assertTrue(t instanceof IllegalArgumentException && t.getMessage().startsWith("repeatInterleave(): "), msg(t));
    t = assertThrows(Throwable.class, () -> x.repeatInterleave(Tensor.fromArray(new long[] {1L << 31, 0, 0}), 1));
    assertTrue(t instanceof IllegalArgumentException && t.getMessage().startsWith("repeatInterleave(): "), msg(t));
  }

  @Test
  void baddbmmBroadcastsSelfAndIgnoresItAtBetaZero() {
    Tensor a = Tensor.randn(new long[] {2, 3, 5}, DType.FLOAT64, new Generator(1)), b = Tensor.randn(new long[] {2, 5, 4}, DType.FLOAT64, new Generator(2));
    Tensor prod = a.bmm(b);
    Tensor self2d = Tensor.fromArray(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 3, 4);
    assertArrayEquals(prod.add(self2d.unsqueeze(0).expand(2, 3, 4)).toDoubleArray(), self2d.baddbmm(a, b).toDoubleArray(), 1e-12);
    assertArrayEquals(new long[] {2, 3, 4}, Tensor.scalar(1.0).to(DType.FLOAT64).baddbmm(a, b).shape());
    assertArrayEquals(new double[] {2, 2, 2, 2}, Tensor.ones(1, 2, 2).baddbmm(Tensor.ones(1, 2, 0), Tensor.ones(1, 0, 2), 2, 1).to(DType.FLOAT64).toDoubleArray(), 0);
    assertTrue(Double.isNaN(Tensor.ones(1, 1, 1).baddbmm(Tensor.full(new long[] {1, 1, 1}, Double.POSITIVE_INFINITY), Tensor.ones(1, 1, 1), 1, 0).item()),
        "alpha 0 still multiplies inf (PyTorch: nan)");
    String m = assertThrows(IllegalArgumentException.class, () -> Tensor.ones(new long[] {3, 2, 3, 4}, DType.FLOAT64).baddbmm(a, b)).getMessage();
    assertTrue(m.startsWith("baddbmm(): "), m);
  }

  // PyTorch keeps integer dtypes: baddbmm(ones(1,2,2, int64), ones(int64), ones(int64), beta=2, alpha=3)
  // -> int64 [[8, 8], [8, 8]]; with beta=0.5 -> int64 [[6, 6], [6, 6]]. jtensor multiplies by a double alpha
  // and beta and returns float32 (8.0 and 6.5).
  @Test
  void baddbmmIntegerInputsComeBackAsFloat() {
    Tensor one = Tensor.ones(new long[] {1, 2, 2}, DType.INT64);
    Tensor r = one.baddbmm(one, one, 2, 3);
    assertEquals(DType.INT64, r.dtype());
    assertArrayEquals(new long[] {8, 8, 8, 8}, r.toLongArray());
    Tensor q = one.baddbmm(one, one, 1, 1);
    assertEquals(DType.INT64, q.dtype());
    assertArrayEquals(new long[] {3, 3, 3, 3}, q.toLongArray());
  }

  // PyTorch: baddbmm(float32 self, float64 batch1, float64 batch2) raises "Input dtypes must be the same, got:
  // input float, batch1: double, batch2: double" (also at beta=0). jtensor returns a float64 result.
  @Test
  void baddbmmMixedSelfDtypeAccepted() {
    Tensor a = Tensor.randn(new long[] {2, 3, 5}, DType.FLOAT64, new Generator(1)), b = Tensor.randn(new long[] {2, 5, 4}, DType.FLOAT64, new Generator(2));
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(2, 3, 4).baddbmm(a, b));
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(new long[] {2, 3, 4}, DType.INT64).baddbmm(a, b, 0, 1));
  }

  // PyTorch: "batch1 must be a 3D tensor" from baddbmm. jtensor's message names bmm(), which the caller never
  // called ("bmm(): batch1 must be a 3D tensor, got a 2D tensor"); the same for a batch mismatch.
  @Test
  void baddbmmErrorsNameBmm() {
    Tensor a = Tensor.ones(3, 5), b = Tensor.ones(2, 5, 4);
    String m = assertThrows(IllegalArgumentException.class, () -> Tensor.ones(3, 4).baddbmm(a, b)).getMessage();
    assertTrue(m.startsWith("baddbmm(): "), m);
    m = assertThrows(IllegalArgumentException.class, () -> Tensor.ones(3, 4).baddbmm(Tensor.ones(2, 3, 5), Tensor.ones(1, 5, 4))).getMessage();
    assertTrue(m.startsWith("baddbmm(): "), m);
  }

  // =============================================================== optimizer state dicts

  /** Two float32 parameters (shapes [2] and [3]) and an optimizer over them, stepped with fixed gradients. */
  private static final class Rig implements AutoCloseable {
    final Tensor p0, p1;
    final Optimizer opt;
    int stepsTaken;

    Rig(BiFunction<List<Tensor>, Double, Optimizer> maker, double init, double lr) {
      p0 = Tensor.fromArray(new float[] {(float) init, (float) -init}).requiresGrad_();
      p1 = Tensor.fromArray(new float[] {(float) init, 2 * (float) init, -0.5f}).requiresGrad_();
      opt = maker.apply(List.of(p0, p1), lr);
    }

    void steps(int n) {
      for (int i = 0; i < n; i++, stepsTaken++) {
        float k = stepsTaken + 1;
        p0.setGrad(Tensor.fromArray(new float[] {0.5f * k, -1f}));
        p1.setGrad(Tensor.fromArray(new float[] {0.1f, -0.2f * k, 0.3f}));
        opt.step();
      }
    }

    @Override
    public void close() {
      opt.close();
    }
  }

  private static final BiFunction<List<Tensor>, Double, Optimizer> ADAM = (ps, lr) -> new Adam(ps, lr, 0.8, 0.95, 1e-8, 0.01);
  private static final BiFunction<List<Tensor>, Double, Optimizer> ADAMW = (ps, lr) -> new AdamW(ps, lr, 0.85, 0.99, 1e-6, 0.1);
  private static final BiFunction<List<Tensor>, Double, Optimizer> SGD_M = (ps, lr) -> new SGD(ps, lr, 0.9, 0.1, 0.01, false);

  /** A deep-enough copy of a state dict that entries can be replaced without touching the original. */
  private static Map<String, Object> mutableCopy(Map<String, Object> sd) {
    Map<String, Object> out = new LinkedHashMap<>();
    Map<Object, Object> st = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) sd.get("state")).entrySet()) st.put(e.getKey(), new LinkedHashMap<>((Map<?, ?>) e.getValue()));
    out.put("state", st);
    List<Object> gs = new ArrayList<>();
    for (Object g : (List<?>) sd.get("param_groups")) gs.add(new LinkedHashMap<>((Map<?, ?>) g));
    out.put("param_groups", gs);
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Map<Object, Object> group(Map<String, Object> sd) {
    return (Map<Object, Object>) ((List<?>) sd.get("param_groups")).get(0);
  }

  @SuppressWarnings("unchecked")
  private static Map<Object, Object> states(Map<String, Object> sd) {
    return (Map<Object, Object>) sd.get("state");
  }

  @SuppressWarnings("unchecked")
  private static Map<Object, Object> state(Map<String, Object> sd, long i) {
    return (Map<Object, Object>) states(sd).get(i);
  }

  /** Everything in a state dict as text, tensors by dtype, shape and values. */
  private static String render(Object o) {
    if (o instanceof Tensor t) return t.dtype() + Arrays.toString(t.shape()) + Arrays.toString(t.to(DType.FLOAT64).toDoubleArray());
    if (o instanceof Map<?, ?> m) {
      StringBuilder sb = new StringBuilder("{");
      for (Map.Entry<?, ?> e : m.entrySet()) sb.append(e.getKey()).append('=').append(render(e.getValue())).append(", ");
      return sb.append('}').toString();
    }
    if (o instanceof List<?> l) return l.stream().map(LmOpsHostileTest::render).toList().toString();
    if (o instanceof Object[] a) return render(Arrays.asList(a));
    return String.valueOf(o);
  }

  /**
   * A victim optimizer (stepped once) refuses the donor's state dict as corrupt() leaves it, throwing
   * `expected`; afterwards it must equal a twin that never saw the call: lr, state dict, and the
   * parameters after two more steps, bit for bit.
   */
  private void refusedAndUntouched(String label, BiFunction<List<Tensor>, Double, Optimizer> maker, Consumer<Map<String, Object>> corrupt,
                                   Class<? extends Throwable> expected) {
    try (Rig donor = new Rig(maker, 1.0, 0.3); Rig victim = new Rig(maker, 5.0, 0.01); Rig twin = new Rig(maker, 5.0, 0.01)) {
      donor.steps(3);
      victim.steps(1);
      twin.steps(1);
      Map<String, Object> sd = mutableCopy(donor.opt.stateDict());
      corrupt.accept(sd);
      Throwable t = assertThrows(Throwable.class, () -> victim.opt.loadStateDict(sd), label + ": the load should be refused");
      assertTrue(expected.isInstance(t), label + ": expected " + expected.getSimpleName() + ", got " + msg(t));
      if (t instanceof IllegalArgumentException) assertTrue(t.getMessage().contains("loadStateDict()"), label + ": " + t.getMessage());
      assertEquals(twin.opt.lr(), victim.opt.lr(), label + ": lr changed by a refused load");
      assertEquals(render(twin.opt.stateDict()), render(victim.opt.stateDict()), label + ": state changed by a refused load");
      victim.steps(2);
      twin.steps(2);
      assertArrayEquals(twin.p0.toDoubleArray(), victim.p0.toDoubleArray(), 0, label + ": p0 after the refused load");
      assertArrayEquals(twin.p1.toDoubleArray(), victim.p1.toDoubleArray(), 0, label + ": p1 after the refused load");
    }
  }

  @Test
  void loadStateDictControlTheUncorruptedDonorLoads() {
    for (BiFunction<List<Tensor>, Double, Optimizer> maker : List.of(ADAM, ADAMW, SGD_M)) {
      try (Rig donor = new Rig(maker, 1.0, 0.3); Rig victim = new Rig(maker, 5.0, 0.01)) {
        donor.steps(3);
        victim.steps(1);
        victim.opt.loadStateDict(mutableCopy(donor.opt.stateDict()));
        assertEquals(0.3, victim.opt.lr());
        assertEquals(render(donor.opt.stateDict()), render(victim.opt.stateDict()));
      }
    }
  }

  @Test
  void loadStateDictRefusalsChangeNothing() {
    Map<String, Consumer<Map<String, Object>>> adam = new LinkedHashMap<>();
    adam.put("lr is a string", sd -> group(sd).put("lr", "0.1"));
    adam.put("lr is NaN", sd -> group(sd).put("lr", Double.NaN));
    // a negative lr is taken, as PyTorch's load takes it: a schedule may set one (SchedulerStateHostileTest)
    adam.put("lr missing", sd -> group(sd).remove("lr"));
    adam.put("lr is a boolean", sd -> group(sd).put("lr", Boolean.TRUE));
    adam.put("betas missing", sd -> group(sd).remove("betas"));
    adam.put("betas null", sd -> group(sd).put("betas", null));
    adam.put("betas one item", sd -> group(sd).put("betas", List.of(0.9)));
    adam.put("betas three items", sd -> group(sd).put("betas", new Object[] {0.9, 0.99, 0.999}));
    adam.put("betas strings", sd -> group(sd).put("betas", List.of("0.9", "0.99")));
    adam.put("betas a number", sd -> group(sd).put("betas", 0.9));
    adam.put("eps a string", sd -> group(sd).put("eps", "1e-8"));
    adam.put("weight_decay missing", sd -> group(sd).remove("weight_decay"));
    adam.put("amsgrad True without max_exp_avg_sq", sd -> group(sd).put("amsgrad", true));  // maximize loads since session 31
    adam.put("decoupled_weight_decay True", sd -> group(sd).put("decoupled_weight_decay", true));
    adam.put("params extra", sd -> group(sd).put("params", List.of(0L, 1L, 2L)));
    adam.put("params fewer", sd -> group(sd).put("params", List.of(0L)));
    adam.put("params missing", sd -> group(sd).remove("params"));
    adam.put("params a string", sd -> group(sd).put("params", "0,1"));
    adam.put("state for parameter 7", sd -> states(sd).put(7L, new LinkedHashMap<>(state(sd, 0))));
    adam.put("state key a string", sd -> states(sd).put("1", states(sd).remove(1L)));
    adam.put("state key null", sd -> states(sd).put(null, states(sd).remove(1L)));
    adam.put("state value not a map", sd -> states(sd).put(1L, "x"));
    adam.put("step not scalar", sd -> state(sd, 1).put("step", Tensor.ones(2)));
    adam.put("step missing", sd -> state(sd, 1).remove("step"));
    adam.put("step a string", sd -> state(sd, 1).put("step", "3"));
    adam.put("exp_avg wrong shape", sd -> state(sd, 1).put("exp_avg", Tensor.ones(2)));
    adam.put("exp_avg 0-dim", sd -> state(sd, 1).put("exp_avg", Tensor.scalar(1.0)));
    adam.put("exp_avg_sq a number", sd -> state(sd, 1).put("exp_avg_sq", 0.5));
    adam.put("exp_avg_sq missing", sd -> state(sd, 1).remove("exp_avg_sq"));
    adam.put("two groups", sd -> sd.put("param_groups", List.of(group(sd), group(sd))));
    adam.put("no groups", sd -> sd.put("param_groups", List.of()));
    adam.put("group not a map", sd -> sd.put("param_groups", List.of("g")));
    adam.put("state a list", sd -> sd.put("state", List.of()));
    adam.put("param_groups missing", sd -> sd.remove("param_groups"));
    for (Map.Entry<String, Consumer<Map<String, Object>>> e : adam.entrySet()) {
      refusedAndUntouched("Adam: " + e.getKey(), ADAM, e.getValue(), IllegalArgumentException.class);
    }
    refusedAndUntouched("AdamW: decoupled_weight_decay False", ADAMW, sd -> group(sd).put("decoupled_weight_decay", false), IllegalArgumentException.class);
    refusedAndUntouched("AdamW: betas a map", ADAMW, sd -> group(sd).put("betas", Map.of()), IllegalArgumentException.class);
    refusedAndUntouched("Adam: a closed exp_avg", ADAM, sd -> {
      Tensor t = Tensor.ones(3);
      t.close();
      state(sd, 1).put("exp_avg", t);
    }, RuntimeException.class);
    Map<String, Consumer<Map<String, Object>>> sgd = new LinkedHashMap<>();
    sgd.put("nesterov a string", sd -> group(sd).put("nesterov", "yes"));
    sgd.put("momentum missing", sd -> group(sd).remove("momentum"));
    sgd.put("dampening a string", sd -> group(sd).put("dampening", "0"));
    sgd.put("maximize a string", sd -> group(sd).put("maximize", "yes"));
    sgd.put("momentum_buffer wrong shape", sd -> state(sd, 1).put("momentum_buffer", Tensor.ones(3, 1)));
    // a momentum_buffer missing (an empty state) or None is no buffer, as PyTorch 2.13 loads it (OptimizerDataHostileTest)
    for (Map.Entry<String, Consumer<Map<String, Object>>> e : sgd.entrySet()) {
      refusedAndUntouched("SGD: " + e.getKey(), SGD_M, e.getValue(), IllegalArgumentException.class);
    }
    try (Rig r = new Rig(ADAM, 1.0, 0.1)) {
      assertThrows(IllegalArgumentException.class, () -> r.opt.loadStateDict(null));
    }
  }

  // Project rule "a failed loadStateDict must change nothing". A state tensor that passes the shape
  // checks but cannot be copied (here a META tensor, as Tensors.load(file, Device.META) gives) for
  // parameter 1 makes loadStateDict throw only after it has set lr, the hyperparameters and parameter
  // 0's state: the victim's lr becomes the donor's 0.3 and its state is half the donor's.
  @Test
  void loadStateDictIsHalfAppliedWhenACopyFailsAdam() {
    refusedAndUntouched("Adam: META exp_avg for parameter 1", ADAM,
        sd -> state(sd, 1).put("exp_avg", Tensor.empty(new long[] {3}, DType.FLOAT32, Device.META)), RuntimeException.class);
  }

  @Test
  void loadStateDictIsHalfAppliedWhenACopyFailsAdamStep() {
    refusedAndUntouched("Adam: META step for parameter 1", ADAM,
        sd -> state(sd, 1).put("step", Tensor.empty(new long[] {}, DType.FLOAT32, Device.META)), RuntimeException.class);
  }

  @Test
  void loadStateDictIsHalfAppliedWhenACopyFailsSgd() {
    refusedAndUntouched("SGD: META momentum_buffer for parameter 1", SGD_M,
        sd -> state(sd, 1).put("momentum_buffer", Tensor.empty(new long[] {3}, DType.FLOAT32, Device.META)), RuntimeException.class);
  }

  // PyTorch matches state keys to parameters by exact id: a state under key 0.5 names no parameter
  // (PyTorch keeps it unattached and parameter 0 gets no state; jtensor refuses an unknown key such as 7
  // outright). jtensor compares longValue(), so 0.5 -> 0 and the state silently becomes parameter 0's.
  @Test
  void loadStateDictFractionalStateKeyMatchesParameterZero() {
    refusedAndUntouched("Adam: state key 0.5", ADAM, sd -> {
      Object s0 = states(sd).remove(0L);
      states(sd).put(0.5, s0);
    }, IllegalArgumentException.class);
  }

  // PyTorch 2.13 accepts a plain number as 'step' (what PyTorch before 1.12 saved: Adam.__setstate__ turns it
  // into a tensor): load_state_dict({... 'step': 2 ...}) then continues as with tensor(2.). jtensor refuses:
  // "the state of parameter 0 has no tensor 'step'".
  @Test
  void loadStateDictRefusesANumericStep() {
    try (Rig donor = new Rig(ADAM, 1.0, 0.3); Rig a = new Rig(ADAM, 5.0, 0.01); Rig b = new Rig(ADAM, 5.0, 0.01)) {
      donor.steps(2);
      Map<String, Object> withTensor = mutableCopy(donor.opt.stateDict()), withNumber = mutableCopy(donor.opt.stateDict());
      state(withNumber, 0).put("step", 2L);
      state(withNumber, 1).put("step", 2.0);
      a.opt.loadStateDict(withTensor);
      assertDoesNotThrow(() -> b.opt.loadStateDict(withNumber));
      a.steps(2);
      b.steps(2);
      assertArrayEquals(a.p1.toDoubleArray(), b.p1.toDoubleArray(), 0);
    }
  }

  // A NaN step: PyTorch keeps tensor(nan) (and then steps to NaN parameters). jtensor rounds it to step 0,
  // keeps the loaded exp_avg / exp_avg_sq and uses them, but its stateDict() now omits parameter 1's state
  // entirely (stateOf returns nothing at step 0): a state that round-trips to a different one. A negative
  // step (-1) makes the next step's bias correction 1 - beta1^0 = 0 and the parameters inf/NaN, silently
  // (the constructor refuses far milder values). Expected: refused (IllegalArgumentException), or kept.
  @Test
  void loadStateDictNanStepDropsTheStateFromStateDict() {
    try (Rig donor = new Rig(ADAM, 1.0, 0.3); Rig v = new Rig(ADAM, 5.0, 0.01)) {
      donor.steps(2);
      Map<String, Object> sd = mutableCopy(donor.opt.stateDict());
      state(sd, 1).put("step", Tensor.scalar(Double.NaN));
      try {
        v.opt.loadStateDict(sd);
        assertTrue(states(v.opt.stateDict()).containsKey(1L), "parameter 1's loaded state vanished from stateDict()");
      } catch (IllegalArgumentException refused) {
        // fine
      }
    }
  }

  // (see above) A negative step: the next step's bias correction is 1 - beta1^0 = 0 and p1 becomes -inf/NaN.
  @Test
  void loadStateDictNegativeStepMakesParametersNonFinite() {
    try (Rig donor = new Rig(ADAM, 1.0, 0.3); Rig v = new Rig(ADAM, 5.0, 0.01)) {
      donor.steps(2);
      Map<String, Object> sd = mutableCopy(donor.opt.stateDict());
      state(sd, 1).put("step", Tensor.scalar(-1.0));
      try {
        v.opt.loadStateDict(sd);
        v.steps(1);
        for (double x : v.p1.toDoubleArray()) assertTrue(Double.isFinite(x), "a negative step made p1 " + Arrays.toString(v.p1.toDoubleArray()));
      } catch (IllegalArgumentException refused) {
        // fine
      }
    }
  }

  // Project rule (never wrong values silently): Adam(..., beta1 = 1.0) is refused by the constructor ("Invalid
  // beta parameter at index 0: 1.0"), but loadStateDict accepts betas (1.0, 0.999), NaN betas, a NaN eps
  // or a negative weight_decay, and the next step yields inf/NaN parameters. (PyTorch's load_state_dict does
  // not validate either; its step then produces NaN.)
  @Test
  void loadStateDictAcceptsHyperparametersTheConstructorRefuses() {
    Map<String, Consumer<Map<String, Object>>> cases = new LinkedHashMap<>();
    cases.put("betas (1.0, 0.999)", sd -> group(sd).put("betas", List.of(1.0, 0.999)));
    cases.put("betas (NaN, 0.999)", sd -> group(sd).put("betas", List.of(Double.NaN, 0.999)));
    cases.put("eps NaN", sd -> group(sd).put("eps", Double.NaN));
    cases.put("weight_decay -1", sd -> group(sd).put("weight_decay", -1.0));
    List<String> accepted = new ArrayList<>();
    for (Map.Entry<String, Consumer<Map<String, Object>>> e : cases.entrySet()) {
      try (Rig donor = new Rig(ADAM, 1.0, 0.3); Rig v = new Rig(ADAM, 5.0, 0.01)) {
        donor.steps(2);
        Map<String, Object> sd = mutableCopy(donor.opt.stateDict());
        e.getValue().accept(sd);
        try {
          v.opt.loadStateDict(sd);
          accepted.add(e.getKey());
        } catch (IllegalArgumentException refused) {
          // fine
        }
      }
    }
    assertEquals(List.of(), accepted, "hyperparameters the constructor refuses were loaded");
  }

  // =============================================================== saveObject

  @Test
  void saveObjectRefusalsAreClearLeaveNoFileAndKeepTheOldOne() throws Exception {
    Path f = dir.resolve("x.pt");
    Tensors.saveObject(Map.of("keep", Tensor.fromArray(new double[] {1, 2})), f);
    byte[] old = Files.readAllBytes(f);
    Tensor closed = Tensor.ones(2);
    closed.close();
    Tensor base = Tensor.arange(0, 6).to(DType.FLOAT32);
    Map<String, Object> bad = new LinkedHashMap<>();
    bad.put("double key", Map.of(1.5, 1L));
    bad.put("boolean key", Map.of(true, 1L));
    bad.put("list key", Map.of(List.of(1L), 1L));
    bad.put("short key", Map.of((short) 1, 1L));
    bad.put("null key", java.util.Collections.singletonMap(null, 1L));
    bad.put("object", Map.of("o", new Object()));
    bad.put("BigInteger", Map.of("b", new java.math.BigInteger("123456789012345678901234567890")));
    bad.put("char", Map.of("c", 'x'));
    bad.put("byte[]", Map.of("b", new byte[] {1, 2}));
    bad.put("long[]", Map.of("b", new long[] {1, 2}));
    bad.put("Optional", Map.of("b", java.util.Optional.empty()));
    bad.put("same storage, two dtypes", List.of(base, base.view(DType.INT32)));
    bad.put("deep unsupported", List.of(List.of(List.of(Map.of("k", new StringBuilder("x"))))));
    for (Map.Entry<String, Object> e : bad.entrySet()) {
      String m = assertThrows(IllegalArgumentException.class, () -> Tensors.saveObject(e.getValue(), f), e.getKey()).getMessage();
      assertTrue(m.startsWith("save(): "), e.getKey() + " -> " + m);
      assertArrayEquals(old, Files.readAllBytes(f), e.getKey() + ": the old file changed");
    }
    // a valid tensor before the closed one: its storage handle must be released (MemoryAccounting checks)
    assertThrows(IllegalStateException.class, () -> Tensors.saveObject(Arrays.asList(Tensor.ones(4), closed), f));
    assertThrows(IllegalStateException.class, () -> Tensors.saveObject(Map.of("t", closed), f));
    assertArrayEquals(old, Files.readAllBytes(f));
    assertFalse(Files.exists(dir.resolve("never.pt")));
    assertThrows(IllegalArgumentException.class, () -> Tensors.saveObject(Map.of("o", new Object()), dir.resolve("never.pt")));
    assertFalse(Files.exists(dir.resolve("never.pt")), "a refused save left a file");
  }

  @Test
  void saveObjectRoundTripsOddButValidValues() throws Exception {
    Path f = dir.resolve("ok.pt");
    List<Object> ints = List.of(Long.MIN_VALUE, Long.MAX_VALUE, -1L, 0L, 255L, 256L, 65535L, 65536L, (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE,
        1L + Integer.MAX_VALUE, -129L, 3, (short) 4, (byte) -5);
    Map<Object, Object> top = new LinkedHashMap<>();
    top.put("ints", ints);
    top.put("nan", Double.NaN);
    top.put("inf", Double.NEGATIVE_INFINITY);
    top.put("float", 0.5f);
    top.put("tuple0", new Object[0]);
    top.put("tuple4", new Object[] {1L, "b", null, true});
    top.put(7L, "long key");
    top.put("unicode \u00e9\u4e2d\ud83d\ude00", "v\u00e9");
    top.put("empty", List.of(Tensor.ones(0), Tensor.ones(0, 3), Tensor.ones(new long[] {0}, DType.INT64)));
    top.put("view", Tensor.arange(0, 12).reshape(3, 4).transpose(0, 1));
    top.put("many", new ArrayList<>(java.util.Collections.nCopies(2500, 7L)));
    top.put("emptymap", Map.of());
    Tensors.saveObject(top, f);
    Map<?, ?> back = (Map<?, ?>) Tensors.loadObject(f);
    try {
      List<Long> want = new ArrayList<>();
      for (Object o : ints) want.add(((Number) o).longValue());
      assertEquals(want, back.get("ints"));
      assertTrue(Double.isNaN((Double) back.get("nan")));
      assertEquals(Double.NEGATIVE_INFINITY, back.get("inf"));
      assertEquals(0.5, back.get("float"));
      assertEquals(List.of(), back.get("tuple0"));
      assertEquals(Arrays.asList(1L, "b", null, true), back.get("tuple4"));
      assertEquals("long key", back.get(7L));
      assertEquals("v\u00e9", back.get("unicode \u00e9\u4e2d\ud83d\ude00"));
      List<?> empty = (List<?>) back.get("empty");
      assertArrayEquals(new long[] {0, 3}, ((Tensor) empty.get(1)).shape());
      assertEquals(DType.INT64, ((Tensor) empty.get(2)).dtype());
      assertArrayEquals(new long[] {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}, ((Tensor) back.get("view")).toLongArray());
      assertEquals(2500, ((List<?>) back.get("many")).size());
      assertEquals(Map.of(), back.get("emptymap"));
    } finally {
      Tensors.closeAll(back);
    }
  }

  // PyTorch: torch.save of d = {}; d['self'] = d works (pickle memoizes) and torch.load(weights_only=True)
  // gives back r['self'] is r. jtensor's loader refuses self-containing pickles, so saveObject should refuse
  // with an IllegalArgumentException; it recurses forever and dies with java.lang.StackOverflowError
  // (for a map, a list and an Object[] tuple alike).
  @Test
  void saveObjectOfACyclicValueOverflowsTheStack() {
    Map<String, Object> cyc = new LinkedHashMap<>();
    cyc.put("self", cyc);
    List<Object> cl = new ArrayList<>();
    cl.add(cl);
    Object[] ct = new Object[1];
    ct[0] = ct;
    for (Object o : List.of(cyc, cl, ct)) {
      Throwable t = assertThrows(Throwable.class, () -> Tensors.saveObject(o, dir.resolve("cyc.pt")));
      assertTrue(t instanceof IllegalArgumentException, msg(t));
    }
    assertFalse(Files.exists(dir.resolve("cyc.pt")));
  }

  // PyTorch: torch.save of a list nested 999 or more deep raises RecursionError "maximum recursion depth
  // exceeded" (a clear refusal). jtensor: PtSaver.value() recurses once per level and dies with
  // java.lang.StackOverflowError from about 2000 levels in a plain main() (1500 already under JUnit).
  @Test
  void saveObjectOfDeepNestingOverflowsTheStack() {
    Object o = 1L;
    for (int i = 0; i < 5000; i++) o = new ArrayList<>(List.of(o));
    Object deep = o;
    Throwable t = assertThrows(Throwable.class, () -> Tensors.saveObject(deep, dir.resolve("deep.pt")));
    assertTrue(t instanceof IllegalArgumentException, msg(t));
  }

  // jtensor's loader refuses pickles nesting deeper than 1000 levels ("pickle nests containers deeper than
  // 1000 levels"), yet saveObject writes 1001+ levels without complaint: Tensors.loadObject cannot read what
  // Tensors.saveObject wrote. (PyTorch's torch.save refuses such depths with RecursionError.) Seen too: at
  // 1500 levels saveObject itself died with StackOverflowError under JUnit (it had written 1500 in a plain main()).
  @Test
  void saveObjectWritesNestingItsOwnLoaderRefuses() throws Exception {
    Object o = 1L;
    for (int i = 0; i < 1100; i++) o = new ArrayList<>(List.of(o));
    Object deep = o;
    Path f = dir.resolve("d1100.pt");
    try {
      Tensors.saveObject(deep, f);
    } catch (IllegalArgumentException refused) {
      return;  // refusing to write it is fine
    } catch (Throwable t) {
      fail("saveObject of 1100 levels: " + msg(t));
    }
    Object back = assertDoesNotThrow(() -> Tensors.loadObject(f), "saveObject wrote it, loadObject should read it");
    Tensors.closeAll(back);
  }

  // PyTorch round-trips the str 'a' + U+D800 + 'b' (pickle writes lone surrogates with 'surrogatepass'). jtensor's
  // String.getBytes(UTF_8) replaces the lone surrogate by '?': saveObject silently writes "a?b".
  @Test
  void saveObjectLoneSurrogateBecomesQuestionMark() throws Exception {
    Path f = dir.resolve("s.pt");
    try {
      Tensors.saveObject(Map.of("s", "a\ud800b"), f);
    } catch (IllegalArgumentException refused) {
      return;
    }
    String back = (String) ((Map<?, ?>) Tensors.loadObject(f)).get("s");
    assertEquals(List.of(0x61, 0xd800, 0x62), back.chars().boxed().toList(), "UTF-16 code units read back");
  }

  // A Java map with keys Integer 1 and Long 1 (distinct in Java) is written as a Python dict with the key 1
  // twice: on load one entry silently disappears ({1=long}). Expected: refused (IllegalArgumentException).
  @Test
  void saveObjectIntegerAndLongKeysCollideSilently() throws Exception {
    Map<Object, Object> m = new LinkedHashMap<>();
    m.put(1, "int");
    m.put(1L, "long");
    Path f = dir.resolve("k.pt");
    try {
      Tensors.saveObject(m, f);
    } catch (IllegalArgumentException refused) {
      return;
    }
    assertEquals(2, ((Map<?, ?>) Tensors.loadObject(f)).size(), "an entry was lost");
  }

  // =============================================================== schedulers

  private static SGD sgd() {
    return new SGD(List.of(Tensor.zeros(1).requiresGrad_()), 0.5, 0.9);
  }

  private static double momentum(Optimizer o) {
    return ((Number) group(o.stateDict()).get("momentum")).doubleValue();
  }

  private static double[] rates(Optimizer o, LRScheduler s, int steps) {
    double[] r = new double[steps + 1];
    r[0] = o.lr();
    for (int i = 1; i <= steps; i++) {
      s.step();
      r[i] = o.lr();
    }
    return r;
  }

  @Test
  void schedulerEdgeCasesMatchPyTorch() {
    try (SGD o = sgd()) {
      assertArrayEquals(new double[] {0.125, 0.375, 0.375, 0.375, 0.375}, rates(o, new LinearLR(o, 0.25, 0.75, 1), 4), 1e-12);
    }
    try (SGD o = sgd()) {
      assertArrayEquals(new double[] {0.5, 0.1, 0.5, 0.1, 0.5}, rates(o, new CosineAnnealingLR(o, 1, 0.1), 4), 1e-12);
    }
    try (SGD o = sgd()) {
      assertArrayEquals(new double[] {0.5, 0.5732233047033631, 0.75, 0.9267766952966369, 1.0, 0.9267766952966369, 0.7499999999999998,
          0.5732233047033626, 0.49999999999999933, 0.5732233047033626}, rates(o, new CosineAnnealingLR(o, 4, 1.0), 9), 1e-12);
    }
    try (SGD o = sgd()) {
      SequentialLR s = new SequentialLR(o, List.of(new LinearLR(o, 0.5, 1.0, 2), new StepLR(o, 2, 0.5), new LambdaLR(o, e -> 0.1)), new int[] {2, 2});
      assertArrayEquals(new double[] {0.25, 0.375, 0.05, 0.05, 0.05, 0.05, 0.05}, rates(o, s, 6), 1e-12, "equal milestones skip a scheduler");
    }
    try (SGD o = sgd()) {
      SequentialLR s = new SequentialLR(o, List.of(new LinearLR(o, 0.5, 1.0, 2), new StepLR(o, 2, 0.5)), new int[] {0});
      assertArrayEquals(new double[] {0.5, 0.5, 0.25, 0.25, 0.125, 0.125}, rates(o, s, 5), 1e-12, "milestone 0");
    }
    try (SGD o = sgd()) {
      SequentialLR s = new SequentialLR(o, List.of(new LambdaLR(o, e -> (e + 1) / 3.0), new CosineAnnealingLR(o, 4, 0.05)), new int[] {3});
      assertArrayEquals(new double[] {0.16666666666666666, 0.3333333333333333, 0.5, 0.5, 0.4340990257669732, 0.275, 0.11590097423302684, 0.05,
          0.1159009742330268}, rates(o, s, 8), 1e-12);
    }
    try (SGD o = sgd()) {
      SequentialLR s = new SequentialLR(o, List.of(new StepLR(o, 2, 0.5), new LinearLR(o, 0.5, 1.0, 3)), new int[] {3});
      assertArrayEquals(new double[] {0.5, 0.5, 0.25, 0.25, 0.3333333333333333, 0.41666666666666663, 0.49999999999999994, 0.49999999999999994,
          0.49999999999999994}, rates(o, s, 8), 1e-12);
    }
    try (SGD o = sgd()) {
      OneCycleLR s = new OneCycleLR(o, 1.0, 1, 0.0, "cos", true, 0.85, 0.95, 25, 1e4);
      assertEquals(4e-6, o.lr(), 1e-15);
      assertEquals(0.95, momentum(o), 1e-12);
      s.step();
      assertEquals(1.0, o.lr(), 1e-12);
      assertEquals(0.85, momentum(o), 1e-12);
      assertThrows(IllegalStateException.class, s::step, "past total_steps");
    }
    try (SGD o = sgd()) {
      OneCycleLR s = new OneCycleLR(o, 1.0, 6);
      double[] lr = {0.040000000000000036, 0.9944154354509117, 0.811745653949763, 0.46263710266697505, 0.1334775301888306, 4e-06, 0.13347753018883055};
      double[] mom = {0.95, 0.8505584586887436, 0.8688255099070633, 0.9037365046793212, 0.9366525935914912, 0.95, 0.9366525935914912};
      for (int i = 0; i <= 6; i++) {
        if (i > 0) s.step();
        assertEquals(lr[i], o.lr(), 1e-12, "lr " + i);
        assertEquals(mom[i], momentum(o), 1e-12, "momentum " + i);
      }
      String m = assertThrows(IllegalStateException.class, s::step).getMessage();
      assertTrue(m.contains("Tried to step 7 times. The specified number of total steps is 6"), m);
    }
    try (SGD o = sgd()) {
      String m = assertThrows(IllegalArgumentException.class,
          () -> new SequentialLR(o, List.of(new LinearLR(o, 0.5, 1.0, 2), new StepLR(o, 2, 0.5), new LambdaLR(o, e -> 0.1)), new int[] {4, 2})).getMessage();
      assertTrue(m.contains("milestones must not decrease"), m);
      assertThrows(IllegalArgumentException.class, () -> new SequentialLR(o, List.of(new StepLR(o, 2, 0.5), new StepLR(o, 2, 0.5)), new int[] {-1}));
      assertThrows(IllegalArgumentException.class, () -> new SequentialLR(o, List.of(new StepLR(o, 2, 0.5)), new int[] {3}));
      try (SGD other = sgd()) {
        assertThrows(IllegalArgumentException.class, () -> new SequentialLR(o, List.of(new StepLR(o, 2, 0.5), new StepLR(other, 2, 0.5)), new int[] {3}));
      }
      assertThrows(IllegalArgumentException.class, () -> new StepLR(o, 0, 0.5));
      assertThrows(IllegalArgumentException.class, () -> new StepLR(o, -3, 0.5));
      assertThrows(IllegalArgumentException.class, () -> new CosineAnnealingLR(o, 0, 0.0));
      assertThrows(IllegalArgumentException.class, () -> new CosineAnnealingLR(o, -1, 0.0));
      assertThrows(IllegalArgumentException.class, () -> new LinearLR(o, 0.0, 1.0, 5));
      assertThrows(IllegalArgumentException.class, () -> new LinearLR(o, 0.5, 1.5, 5));
      assertThrows(IllegalArgumentException.class, () -> new OneCycleLR(o, 1.0, 0));
      assertThrows(IllegalArgumentException.class, () -> new OneCycleLR(o, 1.0, 10, 1.5, "cos", true, 0.85, 0.95, 25, 1e4));
      assertThrows(IllegalArgumentException.class, () -> new OneCycleLR(o, 1.0, 10, 0.3, "exp", true, 0.85, 0.95, 25, 1e4));
      assertThrows(IllegalArgumentException.class, () -> new LambdaLR(o, (java.util.function.IntToDoubleFunction) null));
      assertThrows(IllegalArgumentException.class, () -> new StepLR(null, 1, 0.5));
    }
    try (SGD o = sgd()) {
      StepLR s = new StepLR(o, 3, 0.1);
      s.setLastEpoch(7);
      assertEquals(0.5 * 0.1 * 0.1, o.lr(), 1e-15);
      s.step();
      s.step();
      assertEquals(9, s.lastEpoch());
      assertEquals(0.5 * 0.001, o.lr(), 1e-15);
      assertThrows(IllegalArgumentException.class, () -> s.setLastEpoch(-1));
      assertEquals(9, s.lastEpoch());
    }
  }

  // PyTorch: LinearLR(opt(lr=0.5), start_factor=0.25, end_factor=0.75, total_iters=0) gives
  // [0.125, 0.125, 0.125, 0.125, 0.125] (epoch 0 applies start_factor; past total_iters the rate stays).
  // jtensor special-cases totalIters == 0 as endFactor: [0.375, 0.375, ...].
  @Test
  void linearLRWithZeroTotalIters() {
    try (SGD o = sgd()) {
      assertArrayEquals(new double[] {0.125, 0.125, 0.125, 0.125, 0.125}, rates(o, new LinearLR(o, 0.25, 0.75, 0), 4), 1e-12);
    }
  }

  // PyTorch: SequentialLR([LinearLR(opt, 0.5, 1.0, 2), OneCycleLR(opt, max_lr=1.0, total_steps=6)], [2]) on
  // SGD(momentum=0.9) steps the OneCycleLR itself after the milestone, so the momentum cycles:
  // epochs 3..7 -> momentum 0.8505584586887436, 0.8688255099070633, 0.9037365046793212,
  // 0.9366525935914912, 0.95 (lr 0.9944154354509117, 0.811745653949763, 0.46263710266697505,
  // 0.1334775301888306, 4e-06). jtensor's SequentialLR only calls lrAt(): the rates match, the momentum
  // stays 0.95.
  @Test
  void oneCycleInsideSequentialLRDoesNotCycleMomentum() {
    try (SGD o = sgd()) {
      SequentialLR s = new SequentialLR(o, List.of(new LinearLR(o, 0.5, 1.0, 2), new OneCycleLR(o, 1.0, 6)), new int[] {2});
      double[] lr = {0.9944154354509117, 0.811745653949763, 0.46263710266697505, 0.1334775301888306, 4e-06};
      double[] mom = {0.8505584586887436, 0.8688255099070633, 0.9037365046793212, 0.9366525935914912, 0.95};
      s.step();
      s.step();
      for (int i = 0; i < lr.length; i++) {
        s.step();
        assertEquals(lr[i], o.lr(), 1e-12, "lr at epoch " + (i + 3));
        assertEquals(mom[i], momentum(o), 1e-12, "momentum at epoch " + (i + 3));
      }
    }
  }

  // PyTorch: OneCycleLR(opt, max_lr=1.0, total_steps=6, pct_start=0.5, anneal_strategy='linear') allows the
  // 6th step (step_num == total_steps) and sets lr -0.33332799999999985, momentum 0.9833333333333333.
  // jtensor allows the 6th step too, but setLr() refuses the negative rate: the last scheduler.step() of a
  // training loop with total_steps = number of batches throws IllegalArgumentException
  // "setLr(): Invalid learning rate: -0.333...".
  @Test
  void oneCycleLinearLastAllowedStepThrows() {
    try (SGD o = sgd()) {
      OneCycleLR s = new OneCycleLR(o, 1.0, 6, 0.5, "linear", true, 0.85, 0.95, 25, 1e4);
      double[] lr = {0.04, 0.52, 1.0, 0.666668, 0.3333360000000001, 4.000000000004e-06, -0.33332799999999985};
      for (int i = 1; i <= 6; i++) {
        int step = i;
        assertDoesNotThrow(s::step, "step " + step + " of total_steps 6");
        assertEquals(lr[i], o.lr(), 1e-12);
      }
    }
  }

  // Project rule: a refused call changes nothing. new OneCycleLR(sgd(momentum 0.9), maxLr NaN or divFactor
  // -25, ...) is refused (setLr: Invalid learning rate), but only after it set the optimizer's momentum to
  // max_momentum 0.95. (PyTorch accepts both and sets lr NaN / -0.04.)
  @Test
  void refusedOneCycleLRConstructorChangesTheMomentum() {
    try (SGD o = sgd()) {
      assertThrows(IllegalArgumentException.class, () -> new OneCycleLR(o, Double.NaN, 6));
      assertEquals(0.9, momentum(o), 0, "momentum after a refused OneCycleLR");
      assertEquals(0.5, o.lr(), 0);
      assertThrows(IllegalArgumentException.class, () -> new OneCycleLR(o, 1.0, 6, 0.3, "cos", true, 0.85, 0.95, -25, 1e4));
      assertEquals(0.9, momentum(o), 0, "momentum after a refused OneCycleLR");
    }
  }

  // Project rule: a refused call changes nothing. OneCycleLR(total 6).setLastEpoch(20) throws
  // IllegalStateException, but lastEpoch() is 20 afterwards (the epoch is stored before apply() checks it),
  // so the next step() reports "Tried to step 21 times".
  @Test
  void refusedSetLastEpochStillMovesTheEpoch() {
    try (SGD o = sgd()) {
      OneCycleLR s = new OneCycleLR(o, 1.0, 6);
      s.step();
      double lr = o.lr();
      assertThrows(RuntimeException.class, () -> s.setLastEpoch(20));
      assertEquals(1, s.lastEpoch(), "a refused setLastEpoch moved the epoch");
      assertEquals(lr, o.lr(), 0);
    }
  }

  // setLastEpoch(Integer.MAX_VALUE) then step(): the int epoch overflows to -2^31 and StepLR(step 2, gamma 0.5)
  // sets lr = 0.5 * 0.5^(-2^30) = Infinity, silently (lastEpoch() is negative). PyTorch's epoch is a Python int:
  // last_epoch 2^31 gives 0.5 * 0.5^(2^30) = 0.0. Expected: refused, or a finite rate and a positive epoch.
  @Test
  void setLastEpochAtIntMaxThenStepOverflows() {
    try (SGD o = sgd()) {
      StepLR s = new StepLR(o, 2, 0.5);
      s.setLastEpoch(Integer.MAX_VALUE);
      try {
        s.step();
      } catch (IllegalArgumentException | IllegalStateException refused) {
        return;
      }
      assertTrue(s.lastEpoch() > 0, "lastEpoch " + s.lastEpoch());
      assertEquals(0.0, o.lr(), 0, "lr");
    }
  }

  // SequentialLR(opt, schedulers, null) and a null scheduler in the list: NullPointerException from inside the
  // constructor ("Cannot read the array length because "milestones" is null"). Project rule: an
  // IllegalArgumentException naming SequentialLR.
  @Test
  void sequentialLRNullArgumentsThrowNullPointerException() {
    try (SGD o = sgd()) {
      Throwable t = assertThrows(Throwable.class, () -> new SequentialLR(o, List.of(new StepLR(o, 2, 0.5)), null));
      assertTrue(t instanceof IllegalArgumentException && t.getMessage().startsWith("SequentialLR(): "), msg(t));
      t = assertThrows(Throwable.class, () -> new SequentialLR(o, Arrays.asList(new StepLR(o, 2, 0.5), null), new int[] {1}));
      assertTrue(t instanceof IllegalArgumentException && t.getMessage().startsWith("SequentialLR(): "), msg(t));
    }
  }

  // PyTorch: StepLR(opt(lr=0.5), step_size=2, gamma=-0.5) -> [0.5, 0.5, -0.25, -0.25, 0.125, 0.125]. jtensor
  // accepts gamma -0.5 at construction and then the 2nd step() throws "setLr(): Invalid learning rate: -0.25"
  // in the middle of training. Expected: refused when made (naming StepLR), or PyTorch's rates.
  @Test
  void stepLRNegativeGammaFailsMidRun() {
    try (SGD o = sgd()) {
      StepLR s;
      try {
        s = new StepLR(o, 2, -0.5);
      } catch (IllegalArgumentException refused) {
        assertTrue(refused.getMessage().startsWith("StepLR(): "), refused.getMessage());
        return;
      }
      StepLR sched = s;
      double[] got = new double[6];
      got[0] = o.lr();
      for (int i = 1; i < 6; i++) {
        int k = i;
        assertDoesNotThrow(sched::step, "step " + k);
        got[i] = o.lr();
      }
      assertArrayEquals(new double[] {0.5, 0.5, -0.25, -0.25, 0.125, 0.125}, got, 1e-12);
    }
  }
}
