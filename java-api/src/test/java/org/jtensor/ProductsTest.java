package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kron, tensordot, inner, vdot, mv, addmv, addr, addbmm, multiDot, chainMatmul, cross and diff
 * against PyTorch 2.13 (resources/products/fixtures.pt from make_fixtures.py beside it): values
 * and dtypes over float64, float32, int64, bool, 0-dim, empty and broadcast inputs, the gradients
 * of (out · up).sum() in float64, GradCheck's central differences, and PyTorch's refusals.
 */
class ProductsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/products/fixtures.pt");

  /** Each case's call, with make_fixtures.py's scalar arguments. */
  private static final Map<String, Function<List<Tensor>, Tensor>> OPS = Map.ofEntries(
      Map.entry("kron", x -> x.get(0).kron(x.get(1))),
      Map.entry("tensordot_2", x -> Tensor.tensordot(x.get(0), x.get(1), 2)),
      Map.entry("tensordot_lists", x -> Tensor.tensordot(x.get(0), x.get(1), new int[] {0, 2}, new int[] {1, 0})),
      Map.entry("tensordot_size1", x -> Tensor.tensordot(x.get(0), x.get(1), new int[] {1}, new int[] {0})),
      Map.entry("tensordot_0", x -> Tensor.tensordot(x.get(0), x.get(1), 0)),
      Map.entry("tensordot_all", x -> Tensor.tensordot(x.get(0), x.get(1), 2)),
      Map.entry("tensordot_i64", x -> Tensor.tensordot(x.get(0), x.get(1), 1)),
      Map.entry("inner", x -> x.get(0).inner(x.get(1))),
      Map.entry("vdot", x -> x.get(0).vdot(x.get(1))),
      Map.entry("mv", x -> x.get(0).t().mv(x.get(1))),
      Map.entry("mv_i64", x -> x.get(0).mv(x.get(1))),
      Map.entry("addmv", x -> x.get(0).addmv(x.get(1), x.get(2), 0.5, -1.3)),
      Map.entry("addmv_one", x -> x.get(0).addmv(x.get(1), x.get(2))),
      Map.entry("addmv_beta0", x -> x.get(0).addmv(x.get(1), x.get(2), 0, 2)),
      Map.entry("addmv_f32", x -> x.get(0).addmv(x.get(1), x.get(2), 2, 3)),
      Map.entry("addmv_i64", x -> x.get(0).addmv(x.get(1), x.get(2), 2, 3)),
      Map.entry("addr", x -> x.get(0).addr(x.get(1), x.get(2), 2.0, 0.5)),
      Map.entry("addr_default", x -> x.get(0).addr(x.get(1), x.get(2))),
      Map.entry("addr_beta0", x -> x.get(0).addr(x.get(1), x.get(2), 0.0, 1.5)),
      Map.entry("addr_mixed", x -> x.get(0).addr(x.get(1), x.get(2), 2L, 3L)),
      Map.entry("addr_i64", x -> x.get(0).addr(x.get(1), x.get(2), 2L, 3L)),
      Map.entry("addr_bool", x -> x.get(0).addr(x.get(1), x.get(2))),
      Map.entry("addr_bool_beta0", x -> x.get(0).addr(x.get(1), x.get(2), 0L, 1L)),
      Map.entry("addbmm", x -> x.get(0).addbmm(x.get(1), x.get(2), 0.5, -2.0)),
      Map.entry("addbmm_bcast", x -> x.get(0).addbmm(x.get(1), x.get(2))),
      Map.entry("addbmm_empty", x -> x.get(0).addbmm(x.get(1), x.get(2), 2.0, 1.0)),
      Map.entry("addbmm_i64", x -> x.get(0).addbmm(x.get(1), x.get(2), 2, 3)),
      Map.entry("multidot", Tensor::multiDot),
      Map.entry("chainmatmul", x -> Tensor.chainMatmul(x.toArray(new Tensor[0]))),
      Map.entry("cross", x -> x.get(0).cross(x.get(1), -1)),
      Map.entry("cross_dim0", x -> x.get(0).cross(x.get(1), 0)),
      Map.entry("cross_default", x -> x.get(0).cross(x.get(1))),
      Map.entry("diff", x -> x.get(0).diff()),
      Map.entry("diff_n2_dim0", x -> x.get(0).diff(2, 0)),
      Map.entry("diff_edges", x -> x.get(0).diff(1, 1, x.get(1), x.get(2))),
      Map.entry("diff_promote", x -> x.get(0).diff(1, -1, x.get(1), null)),
      Map.entry("diff_long_n", x -> x.get(0).diff(7, 0)),
      Map.entry("diff_n0", x -> x.get(0).diff(0, -1)));

  /** The entry of OPS for a case: its name, else the name before its last "_" (kron_bool is kron's call). */
  private static Function<List<Tensor>, Tensor> op(String name) {
    for (String n = name; ; n = n.substring(0, n.lastIndexOf('_'))) {
      if (OPS.containsKey(n)) return OPS.get(n);
      if (n.indexOf('_') < 0) throw new AssertionError("no call for case " + name);
    }
  }

  @Test
  void valuesDtypesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(55, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      boolean grad = fixtures.has(name + ".up");
      List<Tensor> in = new ArrayList<>();
      for (int k = 0; fixtures.has(name + ".in" + k); k++) in.add(fixtures.tensor(name + ".in" + k).clone().requiresGrad_(grad));
      Tensor out = op(name).apply(in);
      Goldens.assertMatches(fixtures.tensor(name + ".out"), out, name);
      if (!grad) continue;
      out.mul(fixtures.tensor(name + ".up")).sum().backward();
      for (int k = 0; k < in.size(); k++) {
        Tensor want = fixtures.tensor(name + ".grad" + k), got = in.get(k).grad();
        // beta 0 leaves self out of the graph: its grad stays null where PyTorch's is zeros (the only difference)
        if (got == null && name.endsWith("_beta0") && k == 0 && want.abs().max().item() == 0) continue;
        Goldens.assertMatches(want, got, name + ": gradient of input " + k);
      }
    }
  }

  private final Generator gen = new Generator(44);

  private Tensor rnd(long... shape) {
    return Tensor.randn(shape, gen).to(DType.FLOAT64);
  }

  @Test
  void gradientsPassGradCheck() {
    GradCheck.check(t -> t.get(0).kron(t.get(1)), List.of(rnd(2, 1, 3), rnd(2, 2)));
    GradCheck.check(t -> Tensor.tensordot(t.get(0), t.get(1), new int[] {2, 0}, new int[] {0, 1}), List.of(rnd(3, 2, 4), rnd(4, 3, 2)));
    GradCheck.check(t -> Tensor.tensordot(t.get(0), t.get(1), new int[] {0}, new int[] {1}), List.of(rnd(1, 3), rnd(2, 4)));
    GradCheck.check(t -> t.get(0).inner(t.get(1)), List.of(rnd(2, 3), rnd(4, 3)));
    GradCheck.check(t -> t.get(0).addmv(t.get(1), t.get(2), 0.7, -1.2), List.of(rnd(1), rnd(3, 4).t(), rnd(3)));
    GradCheck.check(t -> t.get(0).addr(t.get(1), t.get(2), 1.5, -0.5), List.of(rnd(3), rnd(2), rnd(3)));
    GradCheck.check(t -> t.get(0).addbmm(t.get(1), t.get(2), 0.3, 2.0), List.of(rnd(4), rnd(3, 2, 3), rnd(3, 3, 4)));
    GradCheck.check(Tensor::multiDot, List.of(rnd(3), rnd(3, 4), rnd(4, 5), rnd(5, 2)));
    GradCheck.check(t -> t.get(0).cross(t.get(1), 1), List.of(rnd(1, 3, 2), rnd(4, 3, 2)));
    GradCheck.check(t -> t.get(0).diff(2, 0, t.get(1), t.get(2)), List.of(rnd(4, 3), rnd(1, 3), rnd(2, 3)));
  }

  @Test
  void resultsAreNewTensorsNotViews() {
    Tensor x = rnd(2, 3);
    Tensor same = x.diff(0, -1);
    assertFalse(same.isAliasOf(x), "diff with n 0 copies, as PyTorch's");
    assertArrayEquals(x.toDoubleArray(), same.toDoubleArray());
    Tensor one = Tensor.chainMatmul(x);
    assertFalse(one.isAliasOf(x), "chainMatmul of one matrix copies it");
    Tensor empty = x.diff(5, 1);
    assertArrayEquals(new long[] {2, 0}, empty.shape(), "n past the length leaves no element");
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor a = rnd(2, 3), b = rnd(3, 4), v = rnd(3), ints = Tensor.ones(new long[] {2, 3}, DType.INT64);
    Tensor bools = Tensor.ones(new long[] {3}, DType.BOOL);
    Goldens.refused("tensordot(): both inputs should have same dtype", () -> Tensor.tensordot(a, ints.t(), 1));
    Goldens.refused("tensordot(): tensordot expects dims >= 0, but got dims=-1", () -> Tensor.tensordot(a, b, -1));
    Goldens.refused("tensordot(): tensordot expects dims < ndim_a or ndim_b, but got dims=3", () -> Tensor.tensordot(a, b, 3));
    Goldens.refused("tensordot(): contracted dimensions need to match, but first has size 3 in dim -1 and second has size 2 in dim 0",
        () -> Tensor.tensordot(a, rnd(2, 4), 1));
    Goldens.refused("tensordot(): both dimension lists should have same length", () -> Tensor.tensordot(a, b, new int[] {1, 0}, new int[] {0}));
    Goldens.refused("tensordot(): Dimension out of range (expected to be in range of [-2, 1], but got 5)",
        () -> Tensor.tensordot(a, b, new int[] {5}, new int[] {0}));
    Goldens.refused("tensordot(): dim 1 appears multiple times in the list of dims", () -> Tensor.tensordot(a, a, new int[] {1, -1}, new int[] {1, 1}));
    Goldens.refused("tensordot(): Dimension specified as 0 but tensor has no dimensions",
        () -> Tensor.tensordot(Tensor.scalar(2.0), Tensor.scalar(3.0), new int[] {0}, new int[] {0}));
    Goldens.refused("inner(): inner() the last dimension must match on both input tensors but got shapes [2, 3] and [3, 4]", () -> a.inner(b));
    Goldens.refused("inner(): \"addmm_impl_cpu_\" not implemented for 'Bool'", () -> bools.inner(bools));
    Goldens.refused("vdot(): 1D tensors expected, but got 2D and 2D tensors", () -> a.vdot(a));
    Goldens.refused("vdot(): \"dot\" not implemented for 'Bool'", () -> bools.vdot(bools));
    Goldens.refused("mv(): size mismatch, got input (2), mat (2x3), vec (4)", () -> a.mv(rnd(4)));
    Goldens.refused("mv(): vector + matrix @ vector expected, got 1, 2, 2", () -> a.mv(a));
    Goldens.refused("mv(): addmv input tensors must have the same dtype, but got Long, Float, and Long",
        () -> a.to(DType.FLOAT32).mv(Tensor.ones(new long[] {3}, DType.INT64)));
    Goldens.refused("addmv(): size mismatch, got input (3), mat (2x3), vec (3)", () -> rnd(3).addmv(a, v));
    Goldens.refused("addmv(): vector + matrix @ vector expected, got 2, 2, 1", () -> rnd(2, 1).addmv(a, v));
    Goldens.refused("addmv(): addmv input tensors must have the same dtype, but got Float, Double, and Double",
        () -> Tensor.ones(2).addmv(a, v));
    Goldens.refused("addmv(): \"addmv_impl_cpu\" not implemented for 'Bool'",
        () -> Tensor.ones(new long[] {2}, DType.BOOL).addmv(Tensor.ones(new long[] {2, 3}, DType.BOOL), bools));
    Goldens.refused("addr(): addr: Expected 1-D argument vec1, but got 2-D", () -> a.addr(a, v));
    Goldens.refused("addr(): The expanded size of the tensor (3) must match the existing size (4) at non-singleton dimension 1.  Target sizes: "
        + "[2, 3].  Tensor sizes: [2, 4]", () -> rnd(2, 4).addr(rnd(2), v));
    Goldens.refused("addr(): For integral input tensors, argument beta must not be a floating point number.",
        () -> ints.addr(ints.select(1, 0), ints.select(0, 0), 2.5, 1.0));
    Goldens.refused("addbmm(): batch1 and batch2 must have same number of batches, got 5 and 4", () -> rnd(2, 4).addbmm(rnd(5, 2, 3), rnd(4, 3, 4)));
    Goldens.refused("addbmm(): Incompatible matrix sizes for bmm (2x3 and 2x4)", () -> rnd(2, 4).addbmm(rnd(5, 2, 3), rnd(5, 2, 4)));
    Goldens.refused("addbmm(): batch1 must be a 3D tensor", () -> rnd(2, 4).addbmm(rnd(2, 3), rnd(5, 3, 4)));
    Goldens.refused("addbmm(): The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 0.",
        () -> rnd(3, 4).addbmm(rnd(5, 2, 3), rnd(5, 3, 4)));
    Goldens.refused("addbmm(): self and mat2 must have the same dtype, but got Float and Double", () -> Tensor.ones(2, 4).addbmm(rnd(5, 2, 3), rnd(5, 3, 4)));
    Goldens.refused("addbmm(): mat1 and mat2 must have the same dtype, but got Double and Float",
        () -> Tensor.ones(2, 4).addbmm(rnd(5, 2, 3), Tensor.ones(5, 3, 4)));
    Goldens.refused("multiDot(): expected at least 2 tensors but got 1", () -> Tensor.multiDot(List.of(a)));
    Goldens.refused("multiDot(): the first tensor must be 1D or 2D but got 3D", () -> Tensor.multiDot(List.of(a.unsqueeze(0), b)));
    Goldens.refused("multiDot(): the last tensor must be 1D or 2D but got 3D", () -> Tensor.multiDot(List.of(a, b.unsqueeze(0))));
    Goldens.refused("multiDot(): tensor 1 must be 2D but got 3D", () -> Tensor.multiDot(List.of(a, b.unsqueeze(0), v)));
    Goldens.refused("multiDot(): tensors 0 and 1 with shapes [2, 3] and [2, 3] cannot be multiplied", () -> Tensor.multiDot(List.of(a, a, b)));
    Goldens.refused("multiDot(): all tensors must have be the same dtype but tensor 0 is float64 and tensor 1 float32",
        () -> Tensor.multiDot(List.of(a, Tensor.ones(3, 4))));
    Goldens.refused("chainMatmul(): Expected one or more matrices", Tensor::chainMatmul);
    Goldens.refused("chainMatmul(): Tensor dimension is 1, expected 2 instead.", () -> Tensor.chainMatmul(v, b));
    Goldens.refused("cross(): linalg.cross: inputs dimension -1 must have length 3. Got 3 and 4", () -> a.cross(b.narrow(0, 0, 2), -1));
    Goldens.refused("cross(): linalg.cross: inputs dimension 0 must have length 3. Got 2 and 2", () -> a.cross(a, 0));
    Goldens.refused("cross(): linalg.cross: inputs must have the same number of dimensions.", () -> v.cross(rnd(4, 3), -1));
    Goldens.refused("cross(): no dimension of size 3 in input", () -> rnd(2, 2).cross(rnd(2, 2)));
    Goldens.refused("cross(): expected scalar type Double but found Long", () -> a.cross(ints, 1));
    Goldens.refused("cross(): Dimension out of range (expected to be in range of [-1, 0], but got 1)", () -> v.cross(v, 1));
    Goldens.refused("cross(): \"cross\" not implemented for 'Bool'", () -> bools.cross(bools, 0));
    Goldens.refused("diff(): diff expects input to be at least one-dimensional", () -> Tensor.scalar(1.0).diff());
    Goldens.refused("diff(): order must be non-negative but got -1", () -> a.diff(-1, -1));
    Goldens.refused("diff(): diff expects prepend or append to be the same dimension as input", () -> a.diff(1, -1, v, null));
    Goldens.refused("diff(): diff expects the shape of tensor to prepend or append to match that of input except along the differencing "
        + "dimension; input.size(0) = 2, but got tensor.size(0) = 3", () -> a.diff(1, -1, null, rnd(3, 1)));
    Goldens.refused("diff(): Dimension out of range (expected to be in range of [-2, 1], but got 2)", () -> a.diff(1, 2));
    Goldens.refused("kron(): expected a Tensor, got null", () -> a.kron(null));
    Tensor closed = rnd(3);
    closed.close();
    Goldens.refused("vdot(): tensor is closed", () -> v.vdot(closed));
  }
}
