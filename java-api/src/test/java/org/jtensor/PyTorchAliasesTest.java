package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;

/**
 * PyTorch 2.13's documented aliases (torch.multiply, divide, subtract, true_divide_, greater, greater_equal,
 * less, less_equal, not_equal, absolute, fix, concat, concatenate) and the in-place pow_ and lerp_: values
 * as PyTorch printed them for a = [[-2.5, 0, 1.5]], b = [[2], [-0.5]], refusals naming the alias.
 */
class PyTorchAliasesTest extends ScopedTest {
  private Tensor a, b;

  @org.junit.jupiter.api.BeforeEach
  void operands() {  // after ScopedTest's scope opens, so the scope closes them
    a = Tensor.fromArray(new double[] {-2.5, 0, 1.5}).reshape(1, 3).to(DType.FLOAT32);
    b = Tensor.fromArray(new double[] {2, -0.5}).reshape(2, 1).to(DType.FLOAT32);
  }

  private static void values(double[] want, Tensor got) {
    assertArrayEquals(want, got.toDoubleArray(), got.toString());
  }

  @Test
  void arithmeticAliasesMatchPyTorch() {
    values(new double[] {-5, 0, 3, 1.25, -0.0, -0.75}, a.multiply(b));
    values(new double[] {-1.25, 0, 0.75, 5, -0.0, -3}, a.divide(b));
    values(new double[] {-1.25, 0, 0.75, 5, -0.0, -3}, a.trueDivide(b));
    values(new double[] {-2, 0, 0, 5, -0.0, -3}, a.divide(b, "floor"));
    values(new double[] {-1, 0, 0, 5, -0.0, -3}, a.divide(b, "trunc"));
    values(new double[] {-4.5, -2, -0.5, -2, 0.5, 2}, a.subtract(b));
    values(new double[] {-6.5, -4, -2.5, -1.5, 1, 2.5}, a.subtract(b, 2.0));
    values(new double[] {2.5, 0, 1.5}, a.absolute());
    values(new double[] {-2, 0, 1}, a.fix());
    values(new double[] {-5, 0, 3}, a.clone().multiply_(2.0));
    values(new double[] {-1.5, 1, 2.5}, a.clone().subtract_(-1L));
    values(new double[] {-1.25, 0, 0.75}, a.clone().divide_(2.0));
    values(new double[] {-1.25, 0, 0.75}, a.clone().trueDivide_(Tensor.scalar(2.0)));
    values(new double[] {2.5, 0, 1.5}, a.clone().absolute_());
    values(new double[] {-2, 0, 1}, a.clone().fix_());
    Tensor x = a.clone();
    assertSame(x, x.multiply_(x));
  }

  @Test
  void comparisonAliasesMatchPyTorch() {
    values(new double[] {0, 0, 0, 0, 1, 1}, a.greater(b));
    values(new double[] {0, 0, 0, 0, 1, 1}, a.greaterEqual(b));
    values(new double[] {1, 1, 1, 1, 0, 0}, a.less(b));
    values(new double[] {1, 1, 1, 1, 0, 0}, a.lessEqual(b));
    values(new double[] {1, 1, 1, 1, 1, 1}, a.notEqual(b));
    values(new double[] {1, 0, 1}, a.notEqual(0L));
    values(new double[] {0, 1, 1}, a.greaterEqual(0.0));
    assertEquals(DType.BOOL, a.less(1L).dtype());
  }

  @Test
  void concatAndConcatenateAreCat() {
    Tensor one = Tensor.ones(2), two = Tensor.zeros(2);
    values(new double[] {1, 1, 0, 0}, Tensor.concat(List.of(one, two)));
    values(new double[] {1, 1, 0, 0}, Tensor.concatenate(List.of(one, two), 0));
    assertArrayEquals(new long[] {1, 4}, Tensor.concat(List.of(one.reshape(1, 2), two.reshape(1, 2)), -1).shape());
    Goldens.refused("concat(): expected a non-empty list of Tensors", () -> Tensor.concat(List.of()));
    Goldens.refused("concatenate(): Tensors must have same number of dimensions: got 1 and 2", () -> Tensor.concatenate(List.of(one, Tensor.ones(2, 2))));
  }

  @Test
  void powAndLerpInPlaceMatchPyTorch() {
    Tensor x = Tensor.fromArray(new double[] {1, 2, 3}).to(DType.FLOAT32);
    Tensor p = x.clone();
    assertSame(p, p.pow_(Tensor.fromArray(new double[] {2, 0.5, -1}).to(DType.FLOAT32)));
    values(new double[] {1, 1.4142135381698608, 0.3333333432674408}, p);
    values(new double[] {1, 8, 27}, Tensor.fromArray(new long[] {1, 2, 3}).pow_(3L));
    values(new double[] {1, 4, 9}, x.clone().pow_(2.0));
    Tensor end = Tensor.fromArray(new double[] {3, 0, 1}).to(DType.FLOAT32);
    values(new double[] {1.5, 1.5, 2.5}, x.clone().lerp_(end, 0.25));
    values(new double[] {1, 1, -1}, x.clone().lerp_(end, Tensor.fromArray(new double[] {0, 0.5, 2}).to(DType.FLOAT32)));
    values(new double[] {2, 1, 2}, x.clone().lerp_(end, Tensor.scalar(0.5)));  // a 0-dim float64 weight, as PyTorch takes it
    Tensor s = Tensor.randn(new long[] {3}, new Generator(62)).to(DType.FLOAT64), e = s.mul(-2.0).add(1.0);
    GradCheck.check(t -> t.get(0).mul(1.0).pow_(t.get(1)), List.of(s.abs().add(0.5), e));
    GradCheck.check(t -> t.get(0).mul(1.0).lerp_(t.get(1), 0.3), List.of(s, e));
    GradCheck.check(t -> t.get(0).mul(1.0).lerp_(t.get(1), t.get(2)), List.of(s, e, s.sigmoid()));
  }

  @Test
  void refusalsNameTheAlias() {
    Tensor bools = Tensor.ones(new long[] {2}, DType.BOOL), ints = Tensor.fromArray(new long[] {1, 2});
    Goldens.refused("subtract(): Subtraction, the `-` operator, with two bool tensors is not supported.", () -> bools.subtract(bools));
    Goldens.refused("divide_(): result type float32 can't be cast to the desired output type int64", () -> ints.clone().divide_(2.0));
    Goldens.refused("multiply(): The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0", () -> ints.multiply(Tensor.ones(3)));
    Goldens.refused("divide(): expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'x'", () -> a.divide(b, "x"));
    Goldens.refused("absolute has no CPU kernel for bool", () -> bools.absolute());
    Goldens.refused("pow_(): Integers to negative integer powers are not allowed.", () -> ints.clone().pow_(-2L));
    Goldens.refused("pow_(): result type float32 can't be cast to the desired output type int64", () -> ints.clone().pow_(0.5));
    Goldens.refused("pow_(): value 300 cannot be converted to type int8 without overflow", () -> ints.to(DType.INT8).pow_(300L));
    Goldens.refused("pow_(): output with shape [3] doesn't match the broadcast shape [2, 3]", () -> Tensor.ones(3).pow_(Tensor.ones(2, 3)));
    Goldens.refused("lerp_ has no CPU kernel for int64", () -> ints.clone().lerp_(ints, 0.5));
    Goldens.refused("lerp_(): expected dtype float32 for `end` but got dtype float64", () -> a.clone().lerp_(a.to(DType.FLOAT64), 0.5));
    Goldens.refused("lerp_(): output with shape [1, 3] doesn't match the broadcast shape [2, 3]", () -> a.clone().lerp_(Tensor.ones(2, 3), 0.5));
  }
}
