package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.Test;

/**
 * Autocast on cuda:0 (torch.autocast("cuda"), tag cuda) against the CPU's: the table's ops on CUDA
 * compute in the autocast dtype (float16, bfloat16) and the losses in float32, with the CPU's values;
 * a training step's gradients reach float32 leaves on CUDA in float32, as on the CPU. The state is
 * per device type: autocast on for CUDA leaves the CPU's ops alone, and the reverse.
 */
class CudaAutocastTest extends CudaParity {
  private static final DType[] LOW = {DType.BFLOAT16, DType.FLOAT16};

  /** op run under autocast to low on its first input's device type; the result must be in want. */
  private static Function<Tensor[], Tensor> under(DType low, DType want, String what, Function<Tensor[], Tensor> op) {
    return t -> {
      try (Autocast a = Autocast.enable(t[0].device(), low)) {
        Tensor y = op.apply(t);
        assertEquals(want, y.dtype(), what + " under autocast " + low + " on " + t[0].device());
        return y;
      }
    };
  }

  @Test
  void theTablesOpsComputeInTheirListsDtypeOnCuda() {
    Random rnd = new Random(71);
    long[] one = {1, 1}, pad = {1, 1};
    for (DType low : LOW) {
      Tensor x = integers(rnd, DType.FLOAT32, new long[] {5, 8}, 0, -3, 3), w = integers(rnd, DType.FLOAT32, new long[] {6, 8}, 1, -3, 3);
      Tensor b = integers(rnd, DType.FLOAT32, new long[] {6}, 0, -3, 3);
      Tensor img = integers(rnd, DType.FLOAT32, new long[] {2, 3, 7, 7}, 0, -3, 3), k = integers(rnd, DType.FLOAT32, new long[] {4, 3, 3, 3}, 0, -2, 2);
      Tensor q = integers(rnd, DType.FLOAT32, new long[] {1, 2, 70, 64}, 0, -1, 1).mul(0.125);
      Tensor target = Tensor.fromArray(new long[] {0, 5, 2, 3, 1});
      check("linear " + low, under(low, low, "linear", t -> Functional.linear(t[0], t[1], t[2])), x, w, b);
      check("matmul " + low, under(low, low, "matmul", t -> t[0].matmul(t[1].t())), x, w);
      check("conv2d " + low, under(low, low, "conv2d", t -> Functional.conv2d(t[0], t[1], null, one, pad, one, 1)), img, k);
      check("scaledDotProductAttention " + low, under(low, low, "sdpa",
          t -> Functional.scaledDotProductAttention(t[0], t[0], t[0], null, 0, true)), q);
      check("crossEntropy " + low, under(low, DType.FLOAT32, "crossEntropy",
          t -> Functional.crossEntropy(Functional.linear(t[0], t[1], t[2]), t[3])), x, w, b, target);
      check("relu stays " + low, under(low, low, "relu of a lower-precision result", t -> t[0].matmul(t[1].t()).relu()), x, w);
    }
    assertMostAgreed();
  }

  @Test
  void gradientsReachFloat32LeavesOnCuda() {
    Random rnd = new Random(72);
    for (DType low : LOW) {
      Tensor x = integers(rnd, DType.FLOAT32, new long[] {8, 16}, 0, -2, 2), w1 = integers(rnd, DType.FLOAT32, new long[] {12, 16}, 1, -1, 1);
      Tensor b1 = integers(rnd, DType.FLOAT32, new long[] {12}, 0, -1, 1), w2 = integers(rnd, DType.FLOAT32, new long[] {4, 12}, 0, -1, 1);
      Tensor target = Tensor.fromArray(new long[] {0, 1, 2, 3, 0, 1, 2, 3});
      check("a step's gradients " + low, t -> {
        Tensor[] leaves = {t[0].detach().requiresGrad_(), t[1].detach().requiresGrad_(), t[2].detach().requiresGrad_(), t[3].detach().requiresGrad_()};
        Tensor loss;
        try (Autocast a = Autocast.enable(t[0].device(), low)) {
          Tensor h = Functional.linear(leaves[0], leaves[1], leaves[2]).relu();
          assertEquals(low, h.dtype());
          loss = Functional.crossEntropy(Functional.linear(h, leaves[3], null), t[4]);
        }
        assertEquals(DType.FLOAT32, loss.dtype());
        loss.backward();
        List<Tensor> parts = new ArrayList<>();
        parts.add(loss.detach().reshape(-1));
        for (Tensor l : leaves) {
          assertEquals(DType.FLOAT32, l.grad().dtype(), "a float32 leaf's gradient on " + t[0].device());
          parts.add(l.grad().reshape(-1));
        }
        return Tensor.cat(parts, 0);
      }, x, w1, b1, w2, target);
    }
    assertMostAgreed();
  }

  @Test
  void theStateIsPerDeviceType() {
    if (GPU.onCpu() || GPU.device().isCpu()) return;  // in a dry run both are the CPU
    Tensor a = Tensor.ones(new long[] {4, 4}), g = a.to(GPU.device());
    try (Autocast cuda = Autocast.enable(GPU.device(), DType.FLOAT16)) {
      assertEquals(DType.FLOAT16, g.matmul(g).dtype(), "CUDA's op under CUDA's autocast");
      assertEquals(DType.FLOAT32, a.matmul(a).dtype(), "the CPU's op is not under CUDA's autocast");
    }
    try (Autocast cpu = Autocast.enable(Device.CPU, DType.BFLOAT16)) {
      assertEquals(DType.FLOAT32, g.matmul(g).dtype(), "CUDA's op is not under the CPU's autocast");
    }
  }
}
