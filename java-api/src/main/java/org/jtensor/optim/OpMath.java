package org.jtensor.optim;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * PyTorch's CPU lerp_, addcmul_ and addcdiv_ as its optimizers use them (add_ with alpha needs nothing here: the native
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

  /** a + b·c rounded once (see fma above): float32 through float64, float64 by fma64. */
  private static Tensor fma(Tensor a, Tensor b, Tensor c) {
    if (a.dtype() == DType.FLOAT64) return fma64(a, b, c);
    return a.to(DType.FLOAT64).add_(b.to(DType.FLOAT64).mul_(c.to(DType.FLOAT64))).to(DType.FLOAT32);
  }

  /**
   * a + b·c in float64 without rounding b·c first (PyTorch's addcmul is fmadd there; rounded twice, 947 of 20,000
   * random float64 addcmuls were an ulp off): b·c = p + e exactly (Dekker's product over Veltkamp's split), a + p =
   * s + t exactly (Knuth's sum), then s + (t + e). Off only where t + e rounds within 2⁻⁵³ of a tie, or where
   * the split overflows (|b|, |c| beyond 2⁹⁹⁶); a non-finite a + p is taken as is.
   */
  private static Tensor fma64(Tensor a, Tensor b, Tensor c) {
    Tensor p = b.mul(c), bh = high(b), bl = b.sub(bh), ch = high(c), cl = c.sub(ch);
    Tensor e = bh.mul(ch).sub(p).add(bh.mul(cl)).add(bl.mul(ch)).add(bl.mul(cl));
    Tensor s = a.add(p), pp = s.sub(a), t = a.sub(s.sub(pp)).add(p.sub(pp));
    return Tensor.where(s.isfinite(), s.add(t.add(e)), s);
  }

  /** Veltkamp's split: the high 26 bits of x's significand (x minus it is exact in float64). */
  private static Tensor high(Tensor x) {
    Tensor t = x.mul(134217729.0);  // 2^27 + 1
    return t.sub(t.sub(x));
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

  /** a.addcmul(b, c, value): fma(value·b, c, a). */
  static Tensor addcmul(Tensor a, Tensor b, Tensor c, double value) {
    DType dt = a.dtype(), op = opmath(dt);
    try (TensorScope scope = TensorScope.open()) {
      Tensor vb = b.to(op).mul(scalar(dt, value));
      return scope.keep(fma(a.to(op), vb, c.to(op)).to(dt));
    }
  }

  /** a.addcdiv(b, c, value): a + (value·b) / c, each rounded at the opmath precision. */
  static Tensor addcdiv(Tensor a, Tensor b, Tensor c, double value) {
    DType dt = a.dtype(), op = opmath(dt);
    try (TensorScope scope = TensorScope.open()) {
      return scope.keep(a.to(op).add(b.to(op).mul(scalar(dt, value)).div(c.to(op))).to(dt));
    }
  }
}
