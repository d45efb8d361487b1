package org.jtensor.optim;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * PyTorch's CPU lerp_ as its optimizers use it (addcmul and addcdiv are Tensor's own, which round so; add_ with alpha needs nothing here: the native
 * add is a fused multiply-add, as PyTorch's), each rounded as its kernels round: a fused multiply-add where the kernel has one, in float32 (then once to the dtype) for float16 and bfloat16, a
 * Python scalar read at that precision. Written as separate ops (m·β1 + g·(1-β1), g·g·(1-β2), p - lr·m/d), an
 * Adam step rounded two or three times where PyTorch's rounds once: a bfloat16 run of 20 steps ended 1 ulp off
 * PyTorch's on a tenth of its elements (float32 too, at 1e-7). Each op frees its float64 temporaries before it returns (a step
 * holds every parameter's results until it writes them).
 */
final class OpMath {
  private OpMath() {}

  private static DType opmath(DType d) {
    return d == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32;
  }

  /** A Python scalar as the kernel reads it (opmath_t: float unless the tensor is float64). */
  static double scalar(DType d, double x) {
    return d == DType.FLOAT64 ? x : (float) x;
  }

  /** a + b·k rounded once: the native add with alpha is a fused multiply-add, as PyTorch's kernels. */
  private static Tensor fma(Tensor a, Tensor b, double k) {
    return a.add(b, k);
  }

  /** start.lerp(end, w): |w| < 0.5 ? fma(w, end - start, start) : fma(w - 1, end - start, end) (PyTorch's lerp_vec). */
  static Tensor lerp(Tensor start, Tensor end, double weight) {
    DType dt = start.dtype(), op = opmath(dt);
    try (TensorScope scope = TensorScope.open()) {
      Tensor s = start.to(op), e = end.to(op), diff = e.sub(s);
      double w = scalar(dt, weight);
      Tensor r = Math.abs(w) < 0.5 ? fma(s, diff, w) : fma(e, diff, scalar(dt, w - 1));
      return scope.keep(r.to(dt));
    }
  }
}
