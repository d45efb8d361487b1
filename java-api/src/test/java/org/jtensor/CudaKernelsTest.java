package org.jtensor;

import static org.jtensor.DeviceParity.assertAgree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.jtensor.core.TensorImpl;
import org.jtensor.cuda.Cuda;
import org.jtensor.dispatch.Op;
import org.jtensor.dispatch.OpKind;
import org.jtensor.memory.Memory;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.Factories;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * CUDA kernels against the CPU's, on a GPU machine (tag cuda: mvn -Pgpu, scripts/gpu-check.sh):
 * every elementwise op and dtype with a CUDA kernel, in each layout a kernel path serves (dense and
 * vectorized, dense but misaligned, transposed, broadcast, host scalars); copies between every pair
 * of dtypes and devices; fill and arange. Exact for integer and bool results, within the dtype's
 * tolerance for floats. CUDA's caching allocator must hold no live bytes after each test.
 */
@Tag("cuda")
@org.junit.jupiter.api.extension.ExtendWith(CudaAccounting.class)
class CudaKernelsTest {
  private static final Device GPU = CudaAccounting.device();  // the CPU in a dry run
  private static final double[] PARAMS = {1.0, 20.0, 1.0, 1.0};  // alpha 1, clamp to [1, 20], softplus beta 1 threshold 20

  /** Values of every dtype that exercise signs, zero and fractions; divisors avoid zero for integers. */
  private static Tensor values(DType dtype, long[] shape, int seed, boolean nonzero) {
    long n = 1;
    for (long s : shape) n *= s;
    double[] v = new double[(int) n];
    for (int i = 0; i < n; i++) {
      double x = ((i * 7919L + seed * 104729L) % 23) - 11;
      if (dtype.isFloatingPoint()) x = x * 0.37 + 0.05;
      if (nonzero && x == 0) x = 3;
      v[i] = dtype == DType.BOOL ? (x > 0 ? 1 : 0) : dtype == DType.UINT8 ? Math.abs(x) + (nonzero ? 1 : 0) : x;
    }
    try (Tensor d = Tensor.fromArray(v, shape)) {
      return d.to(dtype);
    }
  }

  /** Cases compared (a result on both devices) and refused alike (the CPU refuses the dtype), by op name. */
  private final Map<String, Integer> compared = new TreeMap<>(), refused = new TreeMap<>();

  /**
   * Runs op on the CPU and on CUDA over the same inputs, made by layout; compares the results. Where
   * the CPU refuses the dtype CUDA must refuse it alike; where the CPU gives a result, so must CUDA.
   */
  private void compare(Op op, DType dtype, Function<Tensor, Tensor> layout) {
    int n = op.kind == OpKind.WHERE ? 3 : op.arity;
    List<Tensor> cpu = new ArrayList<>(), gpu = new ArrayList<>();
    try (TensorScope s = TensorScope.open()) {
      for (int k = 0; k < n; k++) {
        DType t = op.kind == OpKind.WHERE && k == 0 ? DType.BOOL : dtype;
        Tensor c = layout.apply(values(t, new long[] {67, 33}, k, k > 0));
        cpu.add(c);
        gpu.add(layout.apply(values(t, new long[] {67, 33}, k, k > 0).to(GPU)));
      }
      Tensor want;
      try {
        want = run(op, cpu);
      } catch (ArithmeticException | UnsupportedOperationException | IllegalArgumentException e) {
        assertThrows(e.getClass(), () -> run(op, gpu), op.name + " " + dtype);
        refused.merge(key(op), 1, Integer::sum);
        return;
      }
      Tensor got = run(op, gpu).cpu();
      assertAgree(op.name + " " + dtype, want, got);
      compared.merge(key(op), 1, Integer::sum);
    }
  }

  /** Every listed op compared at least once (not only refused), and at least floor cases in all. */
  private void assertCompared(int floor) {
    int total = compared.values().stream().mapToInt(Integer::intValue).sum();
    System.out.println("CudaKernelsTest: " + total + " elementwise cases compared, refused alike by op: " + refused);
    for (String name : ELEMENTWISE_OPS) assertTrue(compared.containsKey(name), name + ": no case compared, all refused " + refused.get(name));
    assertTrue(total >= floor, total + " elementwise cases compared, fewer than " + floor);
  }

  private static Tensor run(Op op, List<Tensor> in) {
    Operand[] operands = new Operand[in.size()];
    for (int k = 0; k < operands.length; k++) operands[k] = Operand.of(Tensor.implOf(in.get(k), op.name));
    return Tensor.wrap(ElementwiseOps.run(op, op.name, null, PARAMS, operands));
  }

  /**
   * The registry's elementwise ops, written out here so that the ops compared on CUDA are not
   * decided by the code under test: a new op fails {@link #theRegistrysElementwiseOpsAreTheListedOnes}
   * until it is listed, and so compared.
   */
  static final List<String> ELEMENTWISE_OPS = List.of(
      "neg", "abs", "sign", "reciprocal", "exp", "exp2", "log", "log2", "log1p", "expm1", "sqrt", "rsqrt",
      "sin", "cos", "tan", "asin", "acos", "atan", "tanh", "sigmoid", "erf",
      "sinh", "cosh", "asinh", "acosh", "atanh", "log10", "erfc",
      "i0", "i0e", "i1", "i1e", "frexp/frexp_mantissa", "frexp/frexp_exponent", "erfinv", "floor", "ceil", "round", "trunc", "relu",
      "reluBackward/relu_backward", "gelu", "gelu/gelu_tanh", "geluBackward/gelu_backward", "silu", "softplus",
      "leakyRelu/leaky_relu", "elu", "selu/elu", "celu/elu", "hardswish", "hardsigmoid", "mish", "logSigmoid/log_sigmoid",
      "hardshrink", "softshrink", "threshold", "hardtanh/clamp_scalar", "relu6/clamp_scalar", "frac", "lgamma", "digamma",
      "trigamma", "polygamma", "sinc", "nanToNum/nan_to_num", "nansum/nan_to_num", "clamp/clamp_scalar",
      "clampMin/clamp_scalar", "clampMax/clamp_scalar", "bitwiseNot/bitwise_not", "logicalNot/logical_not",
      "isnan", "isinf", "isfinite", "signbit", "add", "sub", "mul", "div", "div/div_trunc", "div/div_floor", "floorDivide/div_floor",
      "remainder", "pow", "atan2", "hypot", "logaddexp", "logaddexp2", "xlogy", "copysign", "fmod", "heaviside", "maximum", "minimum", "fmax", "fmin", "gcd", "lcm",
      "xlog1py", "bitwiseLeftShift/bitwise_left_shift", "bitwiseRightShift/bitwise_right_shift", "nextafter", "ldexp", "bitwiseAnd/bitwise_and", "bitwiseOr/bitwise_or",
      "bitwiseXor/bitwise_xor", "eq", "ne", "lt", "le", "gt", "ge", "logicalAnd/logical_and",
      "logicalOr/logical_or", "logicalXor/logical_xor", "lerp", "lerp/lerp_scalar", "clamp", "where", "maskedFill/where");

  /** An op's entry in ELEMENTWISE_OPS: its name, and its kernel where that differs (div's rounding modes, gelu's tanh form). */
  private static String key(Op op) {
    return op.name.equals(op.kernel) ? op.name : op.name + "/" + op.kernel;
  }

  private static List<Op> elementwiseOps() {
    List<Op> ops = new ArrayList<>();
    if (Ops.NEG == null) throw new AssertionError();  // the registry fills as Ops initializes: whichever test runs first
    for (Op op : Op.registered()) if (op.family == Op.Family.ELEMENTWISE) ops.add(op);
    return ops;
  }

  @Test
  void theRegistrysElementwiseOpsAreTheListedOnes() {
    List<String> names = new ArrayList<>();
    for (Op op : elementwiseOps()) names.add(key(op));
    assertEquals(ELEMENTWISE_OPS, names);
  }

  @Test
  void everyElementwiseOpAndDtypeMatchesTheCpuDense() {
    for (Op op : elementwiseOps()) for (DType d : DType.values()) compare(op, d, t -> t);
    assertCompared(520);  // of 62 ops x 10 dtypes (the rest refused alike, as bool arithmetic)
  }

  @Test
  void misalignedTransposedAndBroadcastLayoutsMatchTheCpu() {
    for (Op op : elementwiseOps()) {
      for (DType d : new DType[] {DType.FLOAT32, DType.INT64, DType.FLOAT16, DType.BOOL, DType.UINT8}) {
        compare(op, d, t -> t.flatten(0, 1).narrow(0, 1, 67 * 33 - 1));  // dense, off the 16-byte grid
        compare(op, d, Tensor::t);                                      // strided
        compare(op, d, t -> t.select(0, 5).unsqueeze(0).expand(9, 33));  // stride 0 rows
      }
    }
    assertCompared(759);  // of 62 ops x 5 dtypes x 3 layouts
  }

  @Test
  void hostScalarsAndZeroDimTensorsMatchTheCpu() {
    try (TensorScope s = TensorScope.open()) {
      Tensor a = values(DType.FLOAT32, new long[] {1000}, 1, false);
      Tensor g = a.to(GPU);
      assertAgree("add scalar", a.add(2.5), g.add(2.5).cpu());
      assertAgree("mul long", a.mul(3L), g.mul(3L).cpu());
      Tensor z = Tensor.full(new long[0], 1.75);
      assertAgree("sub 0-dim", a.sub(z), g.sub(z.to(DType.FLOAT32).to(GPU)).cpu());
      assertAgree("where", Tensor.where(a.gt(0.0), a, 0.0), Tensor.where(g.gt(0.0), g, 0.0).cpu());
      Tensor i = values(DType.INT32, new long[] {1000}, 2, false);
      assertAgree("int add double", i.add(0.5), i.to(GPU).add(0.5).cpu());
    }
  }

  /**
   * A float16/bfloat16 mul or div reads its scalar in float32 on CUDA too (PyTorch's, and the CPU's:
   * FuzzFindingsParityTest): zeros * 1e6 is 0, not NaN through a scalar rounded to inf; add and sub
   * round it to the dtype first on both. Dense (vectorized), broadcast and transposed operands.
   */
  @Test
  void sixteenBitScalarsMatchTheCpu() {
    try (TensorScope s = TensorScope.open()) {
      for (DType dtype : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
        Tensor zero = Tensor.zeros(new long[] {1000}, dtype), one = Tensor.ones(new long[] {1000}, dtype);
        assertArrayEquals(new double[] {0, 0}, zero.to(GPU).mul(1e6).cpu().narrow(0, 0, 2).toDoubleArray(), dtype + " 0 * 1e6");
        assertArrayEquals(new double[] {-0.0, -0.0}, zero.to(GPU).mul(-2147483648L).cpu().narrow(0, 0, 2).toDoubleArray(), dtype + " 0 * -2^31");
        List<Tensor> layouts = List.of(one, values(dtype, new long[] {37, 41}, 3, false).transpose(0, 1),
            values(dtype, new long[] {37, 1}, 4, false).expand(37, 64));
        for (Tensor x : layouts) {
          Tensor g = x.to(GPU);
          assertAgree(dtype + " mul 1e-6 then 1e6", x.mul(1e-6).mul(1e6), g.mul(1e-6).mul(1e6).cpu());
          assertAgree(dtype + " div 1e6", x.div(1e6), g.div(1e6).cpu());
          assertAgree(dtype + " div 3 (rounds 1/3 once)", x.div(3.0), g.div(3.0).cpu());
          assertAgree(dtype + " add then sub 70000", x.add(70000.0).sub(70000.0), g.add(70000.0).sub(70000.0).cpu());
          assertAgree(dtype + " sub 0.1", x.sub(0.1), g.sub(0.1).cpu());
        }
        assertArrayEquals(one.mul(1e-6).mul(1e6).toDoubleArray(), one.to(GPU).mul(1e-6).mul(1e6).cpu().toDoubleArray(), dtype + " exact");
      }
    }
  }

  @Test
  void copiesBetweenEveryPairOfDtypesAndDevices() {
    for (DType from : DType.values()) {
      for (DType to : DType.values()) {
        try (TensorScope s = TensorScope.open()) {
          Tensor src = values(from, new long[] {37, 41}, 3, false);
          Tensor want = Tensor.empty(new long[] {41, 37}, to).t();
          want.copy_(src);
          Tensor dst = Tensor.empty(new long[] {41, 37}, to, GPU).t();
          dst.copy_(src.to(GPU));  // device to device, converting, strided
          assertAgree("copy " + from + " -> " + to, want, dst.cpu());
          Tensor host = Tensor.empty(new long[] {37, 41}, to);
          host.copy_(src.to(GPU).t().t());  // device to host, converting
          assertAgree("to host " + from + " -> " + to, want.contiguous(), host);
          Tensor back = Tensor.empty(new long[] {41, 37}, to, GPU).t();
          back.copy_(src);  // host to device, converting, strided
          assertAgree("to device " + from + " -> " + to, want, back.cpu());
        }
      }
    }
  }

  @Test
  void fillArangeAndElementAccess() {
    try (TensorScope s = TensorScope.open()) {
      for (DType d : DType.values()) {
        assertAgree("full " + d, Tensor.full(new long[] {5, 7}, 3.0, d), Tensor.full(new long[] {5, 7}, 3.0, d, GPU).cpu());
        Tensor g = Tensor.zeros(new long[] {6, 4}, d, GPU).t();
        g.fill_(1L);
        assertAgree("fill strided " + d, Tensor.ones(new long[] {4, 6}, d), g.cpu());
      }
      assertArrayEquals(Tensor.arange(0, 1000, 3, DType.INT64).toLongArray(),
          Tensor.wrap(Factories.arange(0, 1000, 3, DType.INT64, GPU)).cpu().toLongArray());
      assertAgree("arange double", Tensor.arange(0.5, 100.0, 0.25, DType.FLOAT32),
          Tensor.wrap(Factories.arange(0.5, 100.0, 0.25, DType.FLOAT32, GPU)).cpu());
      Tensor g = Tensor.zeros(new long[] {3}, DType.FLOAT16, GPU);
      g.setDouble(1.5, 1);
      assertEquals(1.5, g.getDouble(1));
      assertEquals(0.0, g.getDouble(0));
    }
  }

  @Test
  void reductionsMatchTheCpuOverEveryDimSet() {
    try (TensorScope s = TensorScope.open()) {
      for (DType d : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.INT32, DType.INT64, DType.FLOAT16, DType.BOOL, DType.UINT8}) {
        for (Function<Tensor, Tensor> layout : List.<Function<Tensor, Tensor>>of(t -> t, Tensor::t)) {
          Tensor c = layout.apply(values(d, new long[] {300, 257}, 4, false));
          Tensor g = layout.apply(values(d, new long[] {300, 257}, 4, false).to(GPU));
          assertAgree("sum " + d, c.sum(), g.sum().cpu());
          assertAgree("amax " + d, c.amax(0, false), g.amax(0, false).cpu());
          assertAgree("amin " + d, c.amin(1, true), g.amin(1, true).cpu());
          assertAgree("sum dim 0 " + d, c.sum(0), g.sum(0).cpu());
          assertAgree("sum dim 1 " + d, c.sum(1), g.sum(1).cpu());
          assertAgree("any " + d, c.any(), g.any().cpu());
          assertAgree("all " + d, c.all(), g.all().cpu());
          if (d.isFloatingPoint()) assertAgree("mean " + d, c.mean(1), g.mean(1).cpu());
          if (d != DType.BOOL) {
            assertAgree("argmax " + d, c.argmax(), g.argmax().cpu());
            assertAgree("argmax dim 1 " + d, c.argmax(1, false), g.argmax(1, false).cpu());
            assertAgree("argmin dim 0 " + d, c.argmin(0, true), g.argmin(0, true).cpu());
          }
        }
      }
      Tensor big = Tensor.rand(1 << 22).to(GPU);  // many blocks per output: the two-pass path
      assertEquals(big.cpu().sum().item(), big.sum().item(), 1e-2 * (1 << 11));
      Tensor p = Tensor.full(new long[] {40}, 1.1).to(GPU);
      assertAgree("prod", Tensor.full(new long[] {40}, 1.1).prod(), p.prod().cpu());
    }
  }

  @Test
  void softmaxMatchesTheCpuInEveryKernelShape() {
    try (TensorScope s = TensorScope.open()) {
      Generator gen = new Generator(3);
      for (DType d : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16}) {
        // rows of 257 and 256 (a warp per row, by element and in packs), rows of 3000 (a block per
        // row), 6000 lines down 3 (a thread per line); each also transposed (strided lines)
        for (long[] shape : new long[][] {{300, 257}, {40, 256}, {8, 3000}, {3, 6000}}) {
          for (Function<Tensor, Tensor> layout : List.<Function<Tensor, Tensor>>of(t -> t, Tensor::t)) {
            Tensor c = layout.apply(Tensor.randn(shape, gen).mul(4.0).to(d));
            Tensor g = c.to(GPU);
            for (int dim = 0; dim < 2; dim++) {
              assertAgree("softmax " + d + " dim " + dim, c.softmax(dim), g.softmax(dim).cpu());
              assertAgree("logSoftmax " + d + " dim " + dim, c.logSoftmax(dim), g.logSoftmax(dim).cpu());
            }
          }
        }
      }
      Tensor odd = Tensor.fromArray(new float[] {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 1, Float.POSITIVE_INFINITY, 2})
          .reshape(3, 2);
      assertAgree("softmax of -inf, NaN and +inf rows", odd.softmax(1), odd.to(GPU).softmax(1).cpu());
    }
  }

  @Test
  void cudaAndCpuOperandsFailWithPyTorchsMessage() {
    if (CudaAccounting.dryRun()) return;  // the CPU standing in has no second device to mix
    try (Tensor g = Tensor.ones(new long[] {2}, DType.FLOAT32, GPU); Tensor c = Tensor.ones(2)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> g.add(c));
      assertEquals("add(): Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
          e.getMessage());
    }
  }

  @Test
  void theCudaAllocatorCountsAndCaches() {
    long before = Memory.memoryAllocated(GPU);
    try (Tensor g = Tensor.empty(new long[] {1 << 20}, DType.FLOAT32, GPU)) {
      assertTrue(Memory.memoryAllocated(GPU) >= before + (4L << 20));
    }
    assertEquals(before, Memory.memoryAllocated(GPU));
    CudaAccounting.gpuOnly(() -> assertTrue(Cuda.deviceCount() >= 1));
  }
}
