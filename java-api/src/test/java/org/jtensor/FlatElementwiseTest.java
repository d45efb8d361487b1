package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The small-op path (FlatElementwise: same-shape dense operands of one dtype) must give the general
 * path's result bit for bit, and leave every refusal to it. Each op runs on dense operands (the small
 * path) and on the same values read through a stride-2 view (the general path).
 */
class FlatElementwiseTest {
  private static final Generator GEN = new Generator(11);
  private static final DType[] DTYPES = {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16, DType.INT64, DType.INT32};

  private static final Map<String, BinaryOperator<Tensor>> BINARY = Map.of(
      "add", Tensor::add, "sub", Tensor::sub, "mul", Tensor::mul, "maximum", Tensor::maximum,
      "minimum", Tensor::minimum, "eq", Tensor::eq, "lt", Tensor::lt, "div", Tensor::div);
  private static final Map<String, UnaryOperator<Tensor>> UNARY = Map.of(
      "neg", Tensor::neg, "abs", Tensor::abs, "exp", Tensor::exp, "sigmoid", Tensor::sigmoid, "relu", Tensor::relu);

  @Test
  void binaryAndUnaryOpsMatchTheGeneralPathBitForBit() {
    for (DType dt : DTYPES) {
      for (long n : new long[] {1, 4, 37, 40_000}) {  // one element, a small op, a tail, past the grain
        try (TensorScope s = TensorScope.open()) {
          Tensor a = values(n, dt), b = values(n, dt);
          Tensor aStrided = strided(a), bStrided = strided(b);
          for (Map.Entry<String, BinaryOperator<Tensor>> e : BINARY.entrySet()) {
            same(dt + " " + e.getKey() + " n=" + n, e.getValue().apply(a, b), e.getValue().apply(aStrided, bStrided));
          }
          if (dt.isFloatingPoint()) {
            for (Map.Entry<String, UnaryOperator<Tensor>> e : UNARY.entrySet()) {
              same(dt + " " + e.getKey() + " n=" + n, e.getValue().apply(a), e.getValue().apply(aStrided));
            }
            same(dt + " mul(2.5) n=" + n, a.mul(2.5), aStrided.mul(2.5));
            same(dt + " add(b, alpha 3) n=" + n, a.add(b, 3), aStrided.add(bStrided, 3));
          }
        }
      }
    }
  }

  @Test
  void inPlaceOpsMatchTheGeneralPathAndBumpTheVersion() {
    for (DType dt : new DType[] {DType.FLOAT32, DType.INT64}) {
      try (TensorScope s = TensorScope.open()) {
        Tensor a = values(37, dt), b = values(37, dt);
        Tensor want = strided(a).clone().add_(strided(b));
        int v = a.version();
        Tensor r = a.add_(b);
        assertTrue(r == a, "add_ returns its receiver");
        assertEquals(v + 1, a.version(), "add_ bumps the version once");
        same(dt + " add_", a, want);
        Tensor self = a.clone();
        same(dt + " x.mul_(x)", a.mul_(a), self.mul(self));
      }
    }
  }

  /** Operands the small path would take by shape, whose refusals the general path gives. */
  @Test
  void refusalsAreTheGeneralPaths() {
    try (TensorScope s = TensorScope.open()) {
      Tensor base = Tensor.arange(0, 9, 1, DType.FLOAT32);
      Tensor head = base.narrow(0, 0, 8), tail = base.narrow(0, 1, 8);  // dense, same shape, overlapping
      IllegalArgumentException overlap = assertThrows(IllegalArgumentException.class, () -> head.add_(tail));
      assertTrue(overlap.getMessage().startsWith("add_(): unsupported operation: some elements"), overlap.getMessage());
      same("a refused add_ wrote nothing", base, Tensor.arange(0, 9, 1, DType.FLOAT32));

      Tensor i = Tensor.arange(0, 4, 1, DType.INT64), zeros = Tensor.zeros(new long[] {4}, DType.INT64, Device.CPU);
      ArithmeticException divide = assertThrows(ArithmeticException.class, () -> i.floorDivide(zeros));
      assertTrue(divide.getMessage().contains("ZeroDivisionError"), divide.getMessage());

      Tensor w = Tensor.ones(4).requiresGrad_(true), x = Tensor.arange(0, 4, 1, DType.FLOAT32);
      Tensor y = w.mul(x);  // records: the small path leaves autograd to the general one
      y.sum().backward();
      same("d(w*x)/dw", w.grad(), x);
    }
  }

  private static void same(String what, Tensor got, Tensor want) {
    assertEquals(want.dtype(), got.dtype(), what);
    assertArrayEquals(want.shape(), got.shape(), what);
    assertArrayEquals(want.toDoubleArray(), got.toDoubleArray(), 0, what);  // NaNs compare equal by bits
  }

  /** Values with signs, fractions and (for floats) the odd large one; integers small enough for mul. */
  private static Tensor values(long n, DType dt) {
    try (Tensor r = Tensor.randn(new long[] {n}, GEN); Tensor scaled = r.mul(dt.isFloatingPoint() ? 3.0 : 50.0)) {
      return dt.isFloatingPoint() ? scaled.to(dt) : scaled.to(DType.INT64).to(dt);
    }
  }

  /** The same values read through a stride-2 view: not contiguous, so the general path runs. */
  private static Tensor strided(Tensor t) {
    long n = t.shape()[0];
    try (Tensor wide = Tensor.zeros(new long[] {n, 2}, t.dtype(), Device.CPU); Tensor col = wide.select(1, 0)) {
      col.copy_(t);
      return wide.select(1, 0);
    }
  }
}
