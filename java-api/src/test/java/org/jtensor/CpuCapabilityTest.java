package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.Test;

/**
 * The CPU kernels built for each instruction set (Cpu.getCpuCapability) give the same bits: every
 * op below, each floating dtype, special values included, run under each capability this CPU has
 * and compared with the baseline x86-64 build's result; and exp, log and tanh of float32 against
 * Java's double-precision Math within 1, 1 and 2 ulps.
 */
class CpuCapabilityTest extends ScopedTest {
  private static final DType[] FLOATS = {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16};

  private static final Map<String, Function<Tensor[], Tensor>> OPS = new LinkedHashMap<>();

  static {
    OPS.put("exp", t -> t[0].exp());
    OPS.put("log", t -> t[0].log());
    OPS.put("tanh", t -> t[0].tanh());
    OPS.put("sigmoid", t -> t[0].sigmoid());
    OPS.put("silu", t -> t[0].silu());
    OPS.put("gelu", t -> t[0].gelu());
    OPS.put("erf", t -> t[0].erf());
    OPS.put("erfinv", t -> t[0].erfinv());
    OPS.put("relu", t -> t[0].relu());
    OPS.put("add", t -> t[0].add(t[1]));
    OPS.put("mul transposed", t -> t[0].mul(t[1].t()));
    OPS.put("div", t -> t[0].div(t[1]));
    OPS.put("sum dim 1", t -> t[0].sum(1));
    OPS.put("sum", t -> t[0].sum());
    OPS.put("mean dim 0", t -> t[0].mean(0));
    OPS.put("amax dim 1", t -> t[0].amax(1, false));
    OPS.put("softmax", t -> t[0].softmax(1));
    OPS.put("logSoftmax dim 0", t -> t[0].logSoftmax(0));
    OPS.put("layerNorm", t -> Functional.layerNorm(t[0], 1, null, null, 1e-5));
    // sliding windows ([300, 300] as [3, 4, 75, 100]; as [1, 36, 2500] for fold): im2col, col2im, max pooling forward and backward
    OPS.put("unfold 3x3 stride 2 padding 1", t -> Functional.unfold(t[0].view(3, 4, 75, 100), new long[] {3, 3}, new long[] {1, 1},
        new long[] {1, 1}, new long[] {2, 2}));
    OPS.put("fold to 50x50", t -> Functional.fold(t[0].view(1, 36, 2500), new long[] {50, 50}, new long[] {3, 3}, new long[] {1, 1},
        new long[] {1, 1}, new long[] {1, 1}));
    OPS.put("maxPool2d 3x3 stride 2 padding 1 ceil", t -> Functional.maxPool2d(t[0].view(3, 4, 75, 100), new long[] {3, 3},
        new long[] {2, 2}, new long[] {1, 1}, new long[] {1, 1}, true));
    OPS.put("maxPool2d indices", t -> Functional.maxPool2dWithIndices(t[0].view(3, 4, 75, 100), new long[] {2, 2}, new long[] {2, 2},
        new long[] {0, 0}, new long[] {1, 1}, false).indices().to(DType.FLOAT64));
    OPS.put("maxPool2d backward", t -> {
      Tensor x = t[0].detach().requiresGrad_();
      Functional.maxPool2d(x.view(3, 4, 75, 100), 2).sum().backward();
      return x.grad();
    });
    OPS.put("randn", t -> Tensor.randn(new long[] {257, 129}, new Generator(7)).to(t[0].dtype()));
    OPS.put("rand", t -> Tensor.rand(new long[] {257, 129}, new Generator(8)).to(t[0].dtype()));
  }

  /** [rows, 300] of normal values, a few huge, tiny, zero, infinite and NaN elements among them. */
  private static Tensor input(Random rnd, int rows, DType dt) {
    float[] v = new float[rows * 300];
    float[] specials = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1e-40f, -3e-39f, 88.5f, -90f, 1e30f, -1e30f, 0.625f};
    for (int i = 0; i < v.length; ++i) v[i] = i % 97 == 5 ? specials[(i / 97) % specials.length] : (float) (rnd.nextGaussian() * 4);
    return Tensor.fromArray(v, rows, 300).to(dt);
  }

  private static int[] bitsOf(Tensor r) {
    double[] d = r.to(DType.FLOAT64).toDoubleArray();
    int[] out = new int[2 * d.length];
    for (int i = 0; i < d.length; ++i) {
      long b = Double.doubleToLongBits(d[i]);  // canonical NaN: a payload is not part of the contract
      out[2 * i] = (int) b;
      out[2 * i + 1] = (int) (b >>> 32);
    }
    return out;
  }

  @Test
  void everyCapabilityComputesTheSameBits() {
    String initial = Cpu.getCpuCapability();
    List<String> caps = Cpu.supportedCpuCapabilities();
    assertEquals("baseline", caps.get(0));
    assertTrue(caps.contains(initial), initial + " in use but not supported: " + caps);
    Random rnd = new Random(5);
    int compared = 0;
    try {
      for (DType dt : FLOATS) {
        Tensor[] in = {input(rnd, 300, dt), input(rnd, 300, dt).abs().add(0.5)};
        for (Map.Entry<String, Function<Tensor[], Tensor>> op : OPS.entrySet()) {
          List<int[]> results = new ArrayList<>();
          for (String cap : caps) {
            Cpu.setCpuCapability(cap);
            assertEquals(cap, Cpu.getCpuCapability());
            results.add(bitsOf(op.getValue().apply(in)));
          }
          for (int c = 1; c < caps.size(); ++c)
            assertArrayEquals(results.get(0), results.get(c), op.getKey() + " " + dt + ": " + caps.get(c) + " differs from baseline");
          compared += results.get(0).length / 2;
        }
      }
    } finally {
      Cpu.setCpuCapability(initial);
    }
    assertTrue(compared > 100_000, "elements compared: " + compared);
  }

  private static double ulps(float got, double want) {
    if (Double.isNaN(want) || Float.isNaN(got)) return Double.isNaN(want) && Float.isNaN(got) ? 0 : Double.MAX_VALUE;
    float wf = (float) want;
    if (Float.isInfinite(wf) || Float.isInfinite(got)) return got == wf ? 0 : Double.MAX_VALUE;
    double spacing = Math.abs(want) < Float.MIN_NORMAL ? Float.MIN_VALUE : Math.ulp(wf);
    return Math.abs(got - want) / spacing;
  }

  @Test
  void float32ExpLogTanhAreWithinAnUlpOfMath() {
    int n = 1 << 20;
    float[] x = new float[n];
    Random rnd = new Random(11);
    for (int i = 0; i < n; ++i) x[i] = Float.intBitsToFloat(rnd.nextInt());  // every exponent, both signs
    Tensor t = Tensor.fromArray(x, n);
    float[] e = t.exp().toFloatArray(), l = t.log().toFloatArray(), th = t.tanh().toFloatArray();
    double we = 0, wl = 0, wt = 0;
    for (int i = 0; i < n; ++i) {
      we = Math.max(we, ulps(e[i], Math.exp(x[i])));
      wl = Math.max(wl, ulps(l[i], Math.log(x[i])));
      wt = Math.max(wt, ulps(th[i], Math.tanh(x[i])));
    }
    assertTrue(we <= 1, "exp: " + we + " ulps");
    assertTrue(wl <= 1, "log: " + wl + " ulps");
    assertTrue(wt <= 2, "tanh: " + wt + " ulps");
  }

  @Test
  void anUnknownCapabilityIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Cpu.setCpuCapability("avx1024"));
    assertTrue(e.getMessage().startsWith("setCpuCapability(): 'avx1024' is not a capability this CPU runs"), e.getMessage());
  }
}
