package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A hostile review of type promotion and scalar semantics (elementwise, comparison and selection
 * ops) against PyTorch 2.13 (CPU); each expectation is PyTorch's answer to the same call, noted
 * beside it. Java long, double and boolean scalars stand for Python int, float and bool.
 */
class PromotionHostileTest extends ScopedTest {

  private static Tensor ints(DType d, long... v) {
    return Tensor.fromArray(v).to(d);
  }

  private static Tensor floats(DType d, double... v) {
    return Tensor.fromArray(v).to(d);
  }

  private static Tensor bools(boolean... v) {
    long[] l = new long[v.length];
    for (int i = 0; i < v.length; i++) l[i] = v[i] ? 1 : 0;
    return Tensor.fromArray(l).to(DType.BOOL);
  }

  private static <T extends Throwable> T raises(Class<T> type, String messageStart, Executable call) {
    T e = assertThrows(type, call);
    assertEquals(type, e.getClass(), "exactly " + type.getSimpleName());
    assertTrue(e.getMessage().startsWith(messageStart), e.getMessage());
    return e;
  }

  private static void assertValues(Tensor t, DType dtype, double... values) {
    assertEquals(dtype, t.dtype(), "dtype");
    assertArrayEquals(values, t.toDoubleArray(), 0);
  }

  static final String SUB_BOOL = "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
      + "use the `~` or `logical_not()` operator instead.";
  static final String SUB_TWO_BOOLS = "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
      + "`logical_xor()` operator instead.";
  static final String NEG_BOOL = "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
      + "use the `~` or `logical_not()` operator instead.";

  /**
   * torch.tensor([True]) - torch.tensor([1.]) (and int - bool, a 0-dim bool, sub_, sub with alpha,
   * rsub) raises RuntimeError "Subtraction, the `-` operator, with a bool tensor is not supported.
   * If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."; jtensor
   * computed it (float32 [0.], int64 ...). bool - bool raises "... with two bool tensors is not
   * supported. Use the `^` or `logical_xor()` operator instead."; jtensor said "sub has no CPU kernel for bool".
   */
  @Test
  void subtractionWithABoolOperandWasComputed() {
    Tensor b = bools(true, false);
    Tensor f = floats(DType.FLOAT32, 1, 2);
    Tensor i = ints(DType.INT64, 1, 2);
    raises(IllegalArgumentException.class, "sub(): " + SUB_BOOL, () -> b.sub(f));
    raises(IllegalArgumentException.class, "sub(): " + SUB_BOOL, () -> i.sub(b));
    raises(IllegalArgumentException.class, "sub(): " + SUB_BOOL, () -> f.sub(Tensor.scalar(true)));
    raises(IllegalArgumentException.class, "sub(): " + SUB_BOOL, () -> b.sub(Tensor.scalar(1.0)));
    raises(IllegalArgumentException.class, "sub(): " + SUB_BOOL, () -> f.sub(b, 2));
    raises(IllegalArgumentException.class, "sub(): " + SUB_BOOL, () -> b.sub(1L));
    raises(IllegalArgumentException.class, "sub_(): " + SUB_BOOL, () -> f.sub_(b));
    raises(IllegalArgumentException.class, "subOut(): " + SUB_BOOL, () -> f.subOut(b, Tensor.emptyLike(f)));
    raises(IllegalArgumentException.class, "sub(): " + SUB_BOOL, () -> f.rsub(b));
    raises(IllegalArgumentException.class, "rsub(): " + SUB_BOOL, () -> b.rsub(1.0));
    raises(IllegalArgumentException.class, "sub(): " + SUB_TWO_BOOLS, () -> b.sub(b));
    raises(IllegalArgumentException.class, "sub_(): " + SUB_TWO_BOOLS, () -> b.sub_(b));
    assertValues(f.sub(i), DType.FLOAT32, 0, 0);  // no bool: as before
  }

  /** -torch.tensor([True]) raises "Negation, the `-` operator, on a bool tensor is not supported. ..."; jtensor said "neg has no CPU kernel for bool". */
  @Test
  void negationOfABoolNamedNoKernel() {
    Tensor b = bools(true, false);
    raises(IllegalArgumentException.class, "neg(): " + NEG_BOOL, b::neg);
    raises(IllegalArgumentException.class, "neg_(): " + NEG_BOOL, b::neg_);
    assertValues(ints(DType.UINT8, 1, 0).neg(), DType.UINT8, 255, 0);  // -uint8 wraps, as PyTorch's
  }

  /**
   * torch.rsub(torch.tensor([1, 0], dtype=torch.uint8), 1.0) is tensor([0., 1.]); jtensor negated
   * the uint8 first (255) and added 1.0: [256., 1.]. torch.rsub(torch.tensor([-2**63]), 0.0) is
   * tensor([9.2234e+18]); jtensor's negation wrapped to -2^63.
   */
  @Test
  void rsubOfAFloatScalarNegatedTheIntegersFirst() {
    assertValues(ints(DType.UINT8, 1, 0).rsub(1.0), DType.FLOAT32, 0, 1);
    assertValues(ints(DType.INT64, Long.MIN_VALUE).rsub(0.0), DType.FLOAT32, 0x1p63);
    assertValues(floats(DType.FLOAT16, 5).rsub(1.0), DType.FLOAT16, -4);
  }

  /**
   * A Java int literal met only double overloads, so it acted as a Python float:
   * torch.div(torch.tensor([5, -5]), 2, rounding_mode='floor') is tensor([2, -3]) (int64; jtensor
   * float32 [2., -3.]); torch.div(torch.tensor([5]), 0, rounding_mode='trunc') raises
   * ZeroDivisionError (jtensor: float32 [inf]); torch.rsub(torch.tensor([5]), 1) is tensor([-4])
   * (jtensor float32); torch.rsub(torch.tensor([5], dtype=torch.uint8), 1) is tensor([252],
   * dtype=torch.uint8); torch.tensor([5]).sub_(1) is tensor([4]) and .mul_(2) tensor([10])
   * (jtensor refused: "result type float32 can't be cast to the desired output type int64");
   * torch.where(c, 1, 0) is int64 and torch.where(c, int8, 0) / torch.where(c, 0, int8) int8
   * (jtensor float32).
   */
  @Test
  void anIntegerScalarActedAsAPythonFloat() {
    Tensor i = ints(DType.INT64, 5, -5);
    assertValues(i.div(2, "floor"), DType.INT64, 2, -3);
    assertValues(i.div(2, "trunc"), DType.INT64, 2, -2);
    raises(ArithmeticException.class, "div(): ZeroDivisionError", () -> i.div(0, "trunc"));
    assertValues(i.div(2.0, "floor"), DType.FLOAT32, 2, -3);  // a Python float: float32, as before
    assertValues(ints(DType.INT64, 5).rsub(1), DType.INT64, -4);
    assertValues(ints(DType.UINT8, 5).rsub(1), DType.UINT8, 252);
    assertValues(ints(DType.INT64, 5).sub_(1), DType.INT64, 4);
    assertValues(ints(DType.INT64, 5).mul_(2), DType.INT64, 10);
    raises(IllegalArgumentException.class, "mul_(): result type float32 can't be cast to the desired output type int64",
        () -> ints(DType.INT64, 5).mul_(1.5));
    Tensor c = bools(true, false);
    assertValues(Tensor.where(c, 1, 0), DType.INT64, 1, 0);
    assertValues(Tensor.where(c, ints(DType.INT8, 5, 6), 0), DType.INT8, 5, 0);
    assertValues(Tensor.where(c, 0, ints(DType.INT8, 5, 6)), DType.INT8, 0, 6);
    assertValues(Tensor.where(c, ints(DType.INT8, 5, 6), 0.5), DType.FLOAT32, 5, 0.5);  // a float: float32, as before
  }

  /**
   * torch.square(torch.tensor([True, False])) is tensor([1, 0]) (int64: pow(x, 2)); jtensor kept
   * bool. torch.sign(torch.tensor([True, False])) is tensor([True, False]); jtensor refused.
   * torch.floor/ceil/round/trunc of a bool tensor raise NotImplementedError ('"floor_vml_cpu" not
   * implemented for 'Bool''); jtensor copied it. F.elu(torch.tensor([-1])) raises
   * NotImplementedError ('"elu_cpu" not implemented for 'Long''); jtensor gave float32 [-0.6321].
   */
  @Test
  void unaryOpsOfBoolAndIntegerInputs() {
    Tensor b = bools(true, false);
    assertValues(b.square(), DType.INT64, 1, 0);
    assertValues(ints(DType.INT8, 20).square(), DType.INT8, -112);  // wraps, as PyTorch's
    assertValues(b.sign(), DType.BOOL, 1, 0);
    raises(UnsupportedOperationException.class, "floor has no CPU kernel for bool", b::floor);
    raises(UnsupportedOperationException.class, "ceil has no CPU kernel for bool", b::ceil);
    raises(UnsupportedOperationException.class, "round has no CPU kernel for bool", b::round);
    raises(UnsupportedOperationException.class, "trunc has no CPU kernel for bool", b::trunc);
    assertValues(ints(DType.INT64, 3).round(), DType.INT64, 3);  // integers: a copy, as before
    // PyTorch's words: "elu_cpu" not implemented for 'Long'
    raises(UnsupportedOperationException.class, "elu(): \"elu\" not implemented for 'Long'", () -> ints(DType.INT64, -1).elu());
    raises(UnsupportedOperationException.class, "elu(): \"elu\" not implemented for 'Bool'", b::elu);
  }

  /**
   * torch.lerp(torch.tensor([1.]), torch.tensor([3.]), torch.tensor(0.5, dtype=torch.float64)) is
   * tensor([2.]): a 0-dim weight of another dtype is taken (so is torch.tensor(1), giving [3.]);
   * jtensor refused "expected dtype float32 for `weight` but got dtype float64". A 1-dim weight of
   * another dtype is refused by both.
   */
  @Test
  void lerpRefusedAZeroDimWeightOfAnotherDtype() {
    Tensor s = floats(DType.FLOAT32, 1), e = floats(DType.FLOAT32, 3);
    assertValues(s.lerp(e, Tensor.scalar(0.5, DType.FLOAT64)), DType.FLOAT32, 2);
    assertValues(s.lerp(e, Tensor.scalar(1L)), DType.FLOAT32, 3);
    assertValues(floats(DType.FLOAT16, 1).lerp(floats(DType.FLOAT16, 3), Tensor.scalar(0.5)), DType.FLOAT16, 2);
    raises(IllegalArgumentException.class, "lerp(): expected dtype float32 for `weight` but got dtype float64",
        () -> s.lerp(e, floats(DType.FLOAT64, 0.5)));
    Tensor w = Tensor.scalar(0.25, DType.FLOAT64).requiresGrad_(true);
    s.lerp(e, w).sum().backward();  // d/dw = end - self = 2, in the weight's dtype
    assertValues(w.grad(), DType.FLOAT64, 2);
  }

  /**
   * torch.clamp_min(torch.tensor([2., nan]), nan) is tensor([nan, nan]) and torch.clamp_max(torch.tensor([2]), nan)
   * tensor([nan]) (float32); its gradient is 0. jtensor's clampMin/clampMax skipped a NaN bound as
   * absent: [2., nan] and int64 [2].
   */
  @Test
  void aNaNBoundOfClampMinWasSkipped() {
    assertValues(floats(DType.FLOAT32, 2, Double.NaN).clampMin(Double.NaN), DType.FLOAT32, Double.NaN, Double.NaN);
    assertValues(ints(DType.INT64, 2).clampMax(Double.NaN), DType.FLOAT32, Double.NaN);
    Tensor x = floats(DType.FLOAT32, 2, 3).requiresGrad_(true);
    x.clampMin(Double.NaN).sum().backward();
    assertValues(x.grad(), DType.FLOAT32, 0, 0);
  }

  /**
   * A 0-dim tensor multiplies or divides a float16/bfloat16 tensor as a Python scalar does: read in
   * float32, the ops' math type. torch.tensor([0., 1.], dtype=torch.float16) * torch.tensor(1e6) is
   * tensor([0., inf]); jtensor rounded the 0-dim tensor to float16 first (inf): [nan, inf]. So did
   * * torch.tensor(100000) (int64), / torch.tensor(1e-8) ([0.] in PyTorch, [nan] here), mul_ and mulOut.
   * torch.tensor([3.], dtype=torch.float16) * torch.tensor(1.000732421875) is 3.001953125 (3.00390625
   * with the 0-dim tensor rounded first). bfloat16 * torch.tensor(1e39, dtype=torch.float64) reads 1e39
   * as float32 inf, as PyTorch's: [nan] at 0. add, and a 0-dim self (torch.mul(torch.tensor(1e6), h)
   * is [nan, inf]), keep rounding it to float16, as PyTorch's.
   */
  @Test
  void aZeroDimTensorWasRoundedToHalfBeforeMul() {
    Tensor h = floats(DType.FLOAT16, 0, 1);
    assertValues(h.mul(Tensor.scalar(1e6)), DType.FLOAT16, 0, Double.POSITIVE_INFINITY);
    assertValues(h.mul(Tensor.scalar(100000L)), DType.FLOAT16, 0, Double.POSITIVE_INFINITY);
    assertValues(floats(DType.FLOAT16, 0).div(Tensor.scalar(1e-8)), DType.FLOAT16, 0);
    assertValues(floats(DType.FLOAT16, 3).mul(Tensor.scalar(1.000732421875)), DType.FLOAT16, 3.001953125);
    assertValues(floats(DType.FLOAT16, 0, 2).mul_(Tensor.scalar(1e5)), DType.FLOAT16, 0, Double.POSITIVE_INFINITY);
    assertValues(h.mulOut(Tensor.scalar(1e6), Tensor.emptyLike(h)), DType.FLOAT16, 0, Double.POSITIVE_INFINITY);
    assertValues(floats(DType.BFLOAT16, 0, 1).mul(Tensor.scalar(1e39, DType.FLOAT64)), DType.BFLOAT16, Double.NaN, Double.POSITIVE_INFINITY);
    assertValues(floats(DType.FLOAT16, -1).add(Tensor.scalar(1.000732421875)), DType.FLOAT16, 0.0009765625);  // rounded first, as PyTorch's
    assertValues(Tensor.scalar(1e6).mul(h), DType.FLOAT16, Double.NaN, Double.POSITIVE_INFINITY);  // self: rounded first, as PyTorch's
  }

  /**
   * torch.isclose(torch.tensor([1, 2]), torch.tensor([1., 2.])) raises RuntimeError "Long did not
   * match Float" (isclose and allclose take one dtype; float16 against float32 and a 0-dim float64
   * against float32 alike); jtensor promoted and answered [True, True].
   */
  @Test
  void iscloseOfTwoDtypesWasAnswered() {
    Tensor i = ints(DType.INT64, 1, 2), f = floats(DType.FLOAT32, 1, 2);
    raises(IllegalArgumentException.class, "isclose(): int64 did not match float32", () -> i.isclose(f));
    raises(IllegalArgumentException.class, "isclose(): int64 did not match float32", () -> i.allclose(f));
    raises(IllegalArgumentException.class, "isclose(): float16 did not match float32", () -> floats(DType.FLOAT16, 1).isclose(floats(DType.FLOAT32, 1)));
    raises(IllegalArgumentException.class, "isclose(): float32 did not match float64", () -> f.isclose(Tensor.scalar(1.0, DType.FLOAT64)));
    assertValues(i.isclose(ints(DType.INT64, 1, 3)), DType.BOOL, 1, 0);  // one dtype: as before
    assertTrue(bools(true).allclose(bools(true)));
  }

  /**
   * torch.tensor(1e39, dtype=torch.float32) is tensor(inf) and torch.tensor(1e6, dtype=torch.float16)
   * tensor(inf) (torch.tensor rounds a float; only torch.full checks it); jtensor's Tensor.scalar, the
   * torch.tensor of one value, refused "full(): value 1.0E39 cannot be converted to type float32
   * without overflow". torch.tensor(300, dtype=torch.int8) is refused by both.
   */
  @Test
  void aScalarTensorPastTheFloatRangeWasRefused() {
    assertValues(Tensor.scalar(1e39, DType.FLOAT32), DType.FLOAT32, Double.POSITIVE_INFINITY);
    assertValues(Tensor.scalar(-1e6, DType.FLOAT16), DType.FLOAT16, Double.NEGATIVE_INFINITY);
    assertValues(Tensor.scalar(65519.0, DType.FLOAT16), DType.FLOAT16, 65504);
    raises(IllegalArgumentException.class, "full(): value 300", () -> Tensor.scalar(300.0, DType.INT8));
    raises(IllegalArgumentException.class, "full(): value 1.0E39", () -> Tensor.full(new long[] {1}, 1e39, DType.FLOAT32));  // torch.full checks
  }

  /**
   * x = torch.zeros(2, dtype=torch.int8); x[0] = 300 raises "value cannot be converted to type int8_t
   * without overflow" (so do NaN or inf into int64, 2.0**40 into int32, 1e39 into float32); jtensor's
   * setLong wrapped it to 44 and setDouble wrote NaN as 0. x[0] = -1 into uint8 is 255 and 1.7 into
   * int64 is 1, in both.
   */
  @Test
  void setLongAndSetDoubleWroteValuesTheDtypeCannotHold() {
    Tensor i8 = Tensor.zeros(new long[] {2}, DType.INT8, Device.CPU);
    raises(IllegalArgumentException.class, "setLong(): value 300 cannot be converted to type int8 without overflow", () -> i8.setLong(300, 0));
    Tensor i64 = Tensor.zeros(new long[] {2}, DType.INT64, Device.CPU);
    raises(IllegalArgumentException.class, "setDouble(): value NaN cannot be converted to type int64 without overflow",
        () -> i64.setDouble(Double.NaN, 0));
    raises(IllegalArgumentException.class, "setDouble(): value Infinity cannot", () -> i64.setDouble(Double.POSITIVE_INFINITY, 0));
    raises(IllegalArgumentException.class, "setDouble(): value 1.099511627776E12 cannot be converted to type int32",
        () -> Tensor.zeros(new long[] {2}, DType.INT32, Device.CPU).setDouble(0x1p40, 0));
    raises(IllegalArgumentException.class, "setDouble(): value 1.0E39 cannot be converted to type float32", () -> Tensor.zeros(2).setDouble(1e39, 0));
    assertValues(i8, DType.INT8, 0, 0);  // nothing written
    assertValues(i64, DType.INT64, 0, 0);
    assertValues(Tensor.zeros(new long[] {2}, DType.UINT8, Device.CPU).setLong(-1, 0), DType.UINT8, 255, 0);
    assertValues(i64.setDouble(1.7, 1), DType.INT64, 0, 1);
  }

  /**
   * torch.add(torch.tensor([1]), torch.tensor([1]), alpha=1.0) (and alpha=2.0, sub, add_, a bool
   * result) raises "For integral input tensors, argument alpha must not be a floating point number.";
   * jtensor took an integral double alpha as an int ([2]). alpha=2 (a Python int) gives [3], alpha=-1
   * into uint8 wraps ([4] for 5 - 1), alpha=300 into int8 is refused; a float alpha with a float
   * result is taken.
   */
  @Test
  void anIntegralFloatAlphaOfAnIntegerAddWasTaken() {
    Tensor i = ints(DType.INT64, 1);
    String words = "For integral input tensors, argument alpha must not be a floating point number.";
    raises(IllegalArgumentException.class, "add(): " + words, () -> i.add(i, 1.0));
    raises(IllegalArgumentException.class, "add(): " + words, () -> i.add(i, 2.0));
    raises(IllegalArgumentException.class, "sub(): " + words, () -> i.sub(i, 2.0));
    raises(IllegalArgumentException.class, "add_(): " + words, () -> i.add_(i, 2.0));
    raises(IllegalArgumentException.class, "add(): " + words, () -> bools(true).add(bools(true), 2.0));
    assertValues(i.add(i, 2), DType.INT64, 3);
    assertValues(i.sub(i, 2), DType.INT64, -1);
    assertValues(ints(DType.UINT8, 5).add(ints(DType.UINT8, 1), -1), DType.UINT8, 4);
    raises(IllegalArgumentException.class, "add(): value 300 cannot be converted to type int8 without overflow",
        () -> ints(DType.INT8, 1).add(ints(DType.INT8, 1), 300));
    assertValues(bools(true).add(bools(true), 2), DType.BOOL, 1);
    assertValues(i.add(floats(DType.FLOAT32, 1), 1.5), DType.FLOAT32, 2.5);
    assertValues(i.sub(Tensor.scalar(1.0), 2), DType.FLOAT32, -1);
  }

  /**
   * torch.clamp(torch.tensor([5, -5, 1]), 0.0, 3.0) is float32 tensor([3., 0., 1.]) (a Python float
   * bound promotes an integer tensor, integral or not; clamp_min(int, 0.0), clamp_max(uint8, 3.0)
   * too), and torch.tensor([5]).clamp_(0.0, 3.0) raises "result type Float can't be cast to the
   * desired output type long int"; jtensor read an integral double bound as an int (int64 [3, 0, 1],
   * and clamp_ wrote [3]). Python int bounds keep the dtype: clamp(int, 0, 3) is int64 and
   * clamp(bool, 0, 1) int64 [1, 0] (jtensor: no bool kernel), bool.clamp_(0, 1) is refused.
   * torch.clamp(int8, -1, 1e300) raises "value cannot be converted to type float without overflow".
   */
  @Test
  void anIntegralDoubleBoundOfClampKeptTheIntegerDtype() {
    Tensor i = ints(DType.INT64, 5, -5, 1);
    assertValues(i.clamp(0.0, 3.0), DType.FLOAT32, 3, 0, 1);
    assertValues(i.clampMin(0.0), DType.FLOAT32, 5, 0, 1);
    assertValues(ints(DType.UINT8, 5, 1).clampMax(3.0), DType.FLOAT32, 3, 1);
    raises(IllegalArgumentException.class, "clamp_(): result type float32 can't be cast to the desired output type int64",
        () -> ints(DType.INT64, 5).clamp_(0.0, 3.0));
    assertValues(i.clamp(0, 3), DType.INT64, 3, 0, 1);
    assertValues(i.clampMin(0), DType.INT64, 5, 0, 1);
    assertValues(i.clampMax(3), DType.INT64, 3, -5, 1);
    assertValues(ints(DType.INT64, 5).clamp_(0, 3), DType.INT64, 3);
    assertValues(bools(true, false).clamp(0, 1), DType.INT64, 1, 0);
    raises(IllegalArgumentException.class, "clamp_(): result type int64 can't be cast to the desired output type bool",
        () -> bools(true).clamp_(0, 1));
    assertValues(bools(true, false).clamp(0.0, 0.5), DType.FLOAT32, 0.5, 0);
    raises(IllegalArgumentException.class, "clamp(): value 1.0E300 cannot be converted to type float32 without overflow",
        () -> ints(DType.INT8, 5).clamp(-1, 1e300));
    assertValues(ints(DType.UINT8, 2).clampMin(-1), DType.UINT8, 255);  // a Python int wraps into uint8, as before
  }

  /**
   * torch.zeros(2, dtype=torch.int8).scatter(0, torch.tensor([0]), 300) raises "value cannot be
   * converted to type int8_t without overflow"; jtensor refused it in the words of another op,
   * "full(): value 300.0 ...". A float value into int64 truncates ([1, 0] for 1.5) in both.
   */
  @Test
  void scatterOfAValueThatOverflowsNamedFull() {
    Tensor idx = ints(DType.INT64, 0);
    raises(IllegalArgumentException.class, "scatter(): value 300 cannot be converted to type int8 without overflow",
        () -> Tensor.zeros(new long[] {2}, DType.INT8, Device.CPU).scatter(0, idx, 300));
    raises(IllegalArgumentException.class, "scatter_(): value 300 cannot be converted to type int8 without overflow",
        () -> Tensor.zeros(new long[] {2}, DType.INT8, Device.CPU).scatter_(0, idx, 300));
    assertValues(Tensor.zeros(new long[] {2}, DType.INT64, Device.CPU).scatter(0, idx, 1.5), DType.INT64, 1, 0);
  }

  /**
   * torch.div(torch.tensor([2.], dtype=torch.float16), 1.0004, rounding_mode='floor') is tensor([1.])
   * (so are 'trunc', floor_divide, a 0-dim torch.tensor(1.0004), and bfloat16 by 1.002): PyTorch's
   * div_floor and div_trunc kernels read a scalar divisor of a 16-bit float in float32 (2 / 1.0004 =
   * 1.9992). jtensor rounded it to float16 (1.0) first: [2.]. torch.remainder(x, 1.0004) rounds it
   * first in PyTorch too: [0.].
   */
  @Test
  void aRoundingDivisionOfAHalfRoundedItsScalarDivisorFirst() {
    Tensor x = floats(DType.FLOAT16, 2);
    assertValues(x.div(1.0004, "floor"), DType.FLOAT16, 1);
    assertValues(x.div(1.0004, "trunc"), DType.FLOAT16, 1);
    assertValues(x.floorDivide(1.0004), DType.FLOAT16, 1);
    assertValues(x.div(Tensor.scalar(1.0004), "floor"), DType.FLOAT16, 1);
    assertValues(x.floorDivide(Tensor.scalar(1.0004)), DType.FLOAT16, 1);
    assertValues(floats(DType.BFLOAT16, 2).div(1.002, "floor"), DType.BFLOAT16, 1);
    assertValues(x.remainder(1.0004), DType.FLOAT16, 0);  // rounded first, as PyTorch's
    assertValues(floats(DType.FLOAT16, 7).div(2L, "floor"), DType.FLOAT16, 3);
  }

  /**
   * torch.add(h(0.), h(2000.), alpha=1.0004) with float16 h is 2000. (PyTorch converts alpha to the
   * tensor's dtype: 1.0); jtensor kept alpha in float32 (its math type) and gave 2001.; sub gave
   * -2001. (PyTorch -2000.). alpha=2049 is 2048 in float16: 2 * 2049 gives 4096 in PyTorch; bfloat16
   * 2000 with alpha 1.004 (1.0078125 in bfloat16) gives 2016.
   */
  @Test
  void aHalfAddKeptItsAlphaInFloat32() {
    Tensor zero = floats(DType.FLOAT16, 0), y = floats(DType.FLOAT16, 2000);
    assertValues(zero.add(y, 1.0004), DType.FLOAT16, 2000);
    assertValues(zero.sub(y, 1.0004), DType.FLOAT16, -2000);
    assertValues(zero.add(floats(DType.FLOAT16, 2), 2049), DType.FLOAT16, 4096);
    assertValues(floats(DType.BFLOAT16, 0).add(floats(DType.BFLOAT16, 2000), 1.004), DType.BFLOAT16, 2016);  // 1.004 is 1.0078125
    assertValues(floats(DType.FLOAT32, 0).add(floats(DType.FLOAT32, 2000), 1.0004), DType.FLOAT32, 2000.7999267578125);
  }
}
