package org.jtensor;

import java.util.Arrays;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.ElementwiseChecks;
import org.jtensor.ops.Operand;
import org.jtensor.ops.TypePromotion;

/**
 * torch.addcmul and addcdiv (self + value·t1·t2, self + value·t1/t2), rounded as PyTorch's CPU
 * kernels round: addcmul a fused multiply-add, in float32 for float16 and bfloat16, value read at
 * that precision. Built from the elementwise ops, so each has its gradient for all three tensors;
 * the optimizers' steps (Adam, Adagrad, RMSprop) call these, the one implementation of the rounding.
 * Inherited by {@link Tensor}.
 */
public sealed interface FusedArithmeticMethods permits Tensor {
  String INTEGER_DIVISION = "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true"
      + " division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value *"
      + " torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for"
      + " float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2),"
      + " for all dtypes.";

  private Tensor self() {
    return (Tensor) this;
  }

  /** self + value·tensor1·tensor2, broadcast, in the three tensors' promoted dtype (value does not promote: an integer result truncates it). */
  default Tensor addcmul(Tensor tensor1, Tensor tensor2, double value) { return addc("addcmul", false, tensor1, tensor2, value); }
  default Tensor addcmul(Tensor tensor1, Tensor tensor2) { return addcmul(tensor1, tensor2, 1); }
  default Tensor addcmul_(Tensor tensor1, Tensor tensor2, double value) { return addc_("addcmul_", false, tensor1, tensor2, value); }
  default Tensor addcmul_(Tensor tensor1, Tensor tensor2) { return addcmul_(tensor1, tensor2, 1); }
  /** self + value·tensor1/tensor2; two integer (or bool) divisors are refused, as PyTorch's. */
  default Tensor addcdiv(Tensor tensor1, Tensor tensor2, double value) { return addc("addcdiv", true, tensor1, tensor2, value); }
  default Tensor addcdiv(Tensor tensor1, Tensor tensor2) { return addcdiv(tensor1, tensor2, 1); }
  default Tensor addcdiv_(Tensor tensor1, Tensor tensor2, double value) { return addc_("addcdiv_", true, tensor1, tensor2, value); }
  default Tensor addcdiv_(Tensor tensor1, Tensor tensor2) { return addcdiv_(tensor1, tensor2, 1); }

  private Tensor addc(String op, boolean div, Tensor tensor1, Tensor tensor2, double value) {
    TensorImpl s = self().impl(op), a = Tensor.implOf(tensor1, op), b = Tensor.implOf(tensor2, op);
    if (div && a.dtype().isIntegral(true) && b.dtype().isIntegral(true)) throw new IllegalArgumentException(op + "(): " + INTEGER_DIVISION);
    broadcast(op, s, a, b);  // refused under the op's name, not the mul inside
    DType d = TypePromotion.start().tensor(s).tensor(a).tensor(b).result();
    if (d == DType.BOOL) {
      String kernel = (div ? "addcdiv" : "addcmul") + (s.device().isCpu() ? "_cpu_out" : "_cuda");
      throw ScalarTypes.notImplemented(op, kernel, d);
    }
    try (TensorScope scope = TensorScope.open()) {
      Tensor x = self().to(d), y = tensor1.to(d), z = tensor2.to(d);
      if (!d.isFloatingPoint()) return scope.keep(x.add(y.mul((long) value).mul(z)));  // addcdiv cannot get here
      DType opmath = d == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32;
      Tensor vy = y.to(opmath).mul(d == DType.FLOAT64 ? value : (float) value);  // the Python scalar as opmath_t reads it
      Tensor r = div ? x.to(opmath).add(vy.div(z.to(opmath))) : fma(x.to(opmath), vy, z.to(opmath));
      return scope.keep(r.to(d));
    }
  }

  /** In place: the broadcast result must have self's shape and cast to self's dtype (no float into an integer tensor). */
  private Tensor addc_(String op, boolean div, Tensor tensor1, Tensor tensor2, double value) {
    TensorImpl s = self().impl(op), a = Tensor.implOf(tensor1, op), b = Tensor.implOf(tensor2, op);
    ElementwiseChecks.checkInPlaceTarget(op, Operand.of(s), Operand.of(a), Operand.of(b));
    long[] shape = broadcast(op, s, a, b);
    if (!Arrays.equals(shape, s.sizes())) {
      throw new IllegalArgumentException(op + "(): output with shape " + Arrays.toString(s.sizes()) + " doesn't match the broadcast shape " + Arrays.toString(shape));
    }
    try (Tensor r = addc(op, div, tensor1, tensor2, value)) {
      if (r.dtype().isFloatingPoint() && !s.dtype().isFloatingPoint()) {
        throw new IllegalArgumentException(op + "(): " + ElementwiseChecks.cannotCast(r.dtype(), s.dtype()));
      }
      return self().copy_(r);
    }
  }

  private static long[] broadcast(String op, TensorImpl s, TensorImpl a, TensorImpl b) {
    return Shapes.broadcastShapes(op, Shapes.broadcastShapes(op, s.sizes(), a.sizes()), b.sizes());
  }

  /** a + b·c rounded once: float32 through float64 (the product is exact there), float64 by fma64. */
  private static Tensor fma(Tensor a, Tensor b, Tensor c) {
    if (a.dtype() == DType.FLOAT64) return fma64(a, b, c);
    return a.to(DType.FLOAT64).add(b.to(DType.FLOAT64).mul(c.to(DType.FLOAT64))).to(DType.FLOAT32);  // not in place: b and c broadcast
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
}
