package org.jtensor.autograd;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Index;
import org.jtensor.Special;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * Every differentiable op against float64 central differences (GradCheck), on random inputs that
 * include broadcasting, size-1 dims and non-contiguous views; second order for the elementwise
 * ops and matmul. A subclass runs every case on another device (CudaGradCheckOpsTest): the leaves
 * and index tensors are made there, and forward, backward and the finite differences run there.
 */
class GradCheckOpsTest {
  private static final Generator G = new Generator(7);

  /** Where the cases run: the CPU here. */
  protected Device device() {
    return Device.CPU;
  }

  /** A float64 leaf of this shape, values in [lo, hi), made non-contiguous when asked (a transposed copy's view). */
  private Tensor leaf(double lo, double hi, boolean transposed, long... shape) {
    try (TensorScope s = TensorScope.open()) {
      long[] storeShape = shape.clone();
      if (transposed && shape.length == 2) storeShape = new long[] {shape[1], shape[0]};
      Tensor u = Tensor.rand(storeShape, DType.FLOAT64, G).mul(hi - lo).add(lo).to(device());
      Tensor x = transposed && shape.length == 2 ? u.t() : u;
      return s.keep(x.detach().requiresGrad_());
    }
  }

  /** An int64 index tensor on the cases' device, made inside the checked function so the check's scope closes it. */
  private Tensor index(long[] values, long... shape) {
    try (Tensor i = Tensor.fromArray(values, shape.length == 0 ? new long[] {values.length} : shape)) {
      return i.to(device());
    }
  }

  private record Case(String name, Function<List<Tensor>, Tensor> f, List<Tensor> inputs, boolean secondOrder) {}

  private static Case c(String name, Function<List<Tensor>, Tensor> f, boolean second, Tensor... in) {
    return new Case(name, f, List.of(in), second);
  }

  /** A float64 constant on the cases' device, made inside the checked function so the check's scope closes it. */
  private Tensor values(double... v) {
    try (Tensor t = Tensor.fromArray(v)) {
      return t.to(device());
    }
  }

  private Tensor gatherIndex() {
    return index(new long[] {0, 1, 1, 0, 2, 2}, 2, 3);
  }

  private List<Case> cases() {
    List<Case> cs = new ArrayList<>();
    // unary elementwise, on a non-contiguous input
    cs.add(c("neg", x -> x.get(0).neg(), true, leaf(-2, 2, true, 3, 2)));
    cs.add(c("abs", x -> x.get(0).abs(), true, leaf(0.2, 2, false, 5)));
    cs.add(c("reciprocal", x -> x.get(0).reciprocal(), true, leaf(0.5, 2, true, 2, 3)));
    cs.add(c("exp", x -> x.get(0).exp(), true, leaf(-1, 1, false, 4)));
    cs.add(c("exp2", x -> x.get(0).exp2(), true, leaf(-1, 1, false, 4)));
    cs.add(c("log", x -> x.get(0).log(), true, leaf(0.5, 2, false, 4)));
    cs.add(c("log2", x -> x.get(0).log2(), true, leaf(0.5, 2, false, 4)));
    cs.add(c("log1p", x -> x.get(0).log1p(), true, leaf(0, 2, false, 4)));
    cs.add(c("expm1", x -> x.get(0).expm1(), true, leaf(-1, 1, false, 4)));
    cs.add(c("sqrt", x -> x.get(0).sqrt(), true, leaf(0.5, 2, false, 4)));
    cs.add(c("rsqrt", x -> x.get(0).rsqrt(), true, leaf(0.5, 2, false, 4)));
    cs.add(c("sin", x -> x.get(0).sin(), true, leaf(-2, 2, false, 4)));
    cs.add(c("cos", x -> x.get(0).cos(), true, leaf(-2, 2, false, 4)));
    cs.add(c("tan", x -> x.get(0).tan(), true, leaf(-1, 1, false, 4)));
    cs.add(c("asin", x -> x.get(0).asin(), true, leaf(-0.8, 0.8, false, 4)));
    cs.add(c("acos", x -> x.get(0).acos(), true, leaf(-0.8, 0.8, true, 2, 2)));
    cs.add(c("atan", x -> x.get(0).atan(), true, leaf(-2, 2, false, 4)));
    cs.add(c("elu", x -> x.get(0).elu(0.7), true, leaf(-2, 2, false, 6)));
    cs.add(c("nanToNum", x -> x.get(0).nanToNum(0.0, 1.0, -1.0), true, leaf(-2, 2, false, 4)));
    cs.add(c("tanh", x -> x.get(0).tanh(), true, leaf(-2, 2, true, 2, 2)));
    cs.add(c("sigmoid", x -> x.get(0).sigmoid(), true, leaf(-2, 2, false, 4)));
    cs.add(c("erf", x -> x.get(0).erf(), true, leaf(-2, 2, false, 4)));
    cs.add(c("erfinv", x -> x.get(0).erfinv(), true, leaf(-0.9, 0.9, false, 4)));
    cs.add(c("relu", x -> x.get(0).relu(), true, leaf(-2, 2, false, 6)));
    cs.add(c("gelu", x -> x.get(0).gelu(), true, leaf(-2, 2, false, 5)));
    cs.add(c("gelu tanh", x -> x.get(0).gelu("tanh"), true, leaf(-2, 2, false, 5)));
    cs.add(c("silu", x -> x.get(0).silu(), true, leaf(-2, 2, false, 5)));
    cs.add(c("softplus", x -> x.get(0).softplus(2.0, 3.0), true, leaf(-2, 2, false, 6)));
    cs.add(c("leakyRelu", x -> x.get(0).leakyRelu(0.1), false, leaf(-2, 2, false, 6)));
    cs.add(c("clamp", x -> x.get(0).clamp(-0.5, 0.5), false, leaf(-1, 1, false, 6)));
    cs.add(c("clampMin", x -> x.get(0).clampMin(0.1), false, leaf(-1, 1, false, 6)));
    cs.add(c("floor", x -> x.get(0).floor(), false, leaf(-2, 2, false, 4)));
    cs.add(c("selu", x -> x.get(0).selu(), true, leaf(-2, 2, false, 6)));
    cs.add(c("celu", x -> x.get(0).celu(0.7), true, leaf(-2, 2, false, 6)));
    cs.add(c("hardswish", x -> x.get(0).hardswish(), true, leaf(-4, 4, false, 6)));
    cs.add(c("hardsigmoid", x -> x.get(0).hardsigmoid(), false, leaf(-4, 4, false, 6)));
    cs.add(c("mish", x -> x.get(0).mish(), true, leaf(-3, 3, true, 2, 3)));
    cs.add(c("logSigmoid", x -> x.get(0).logSigmoid(), true, leaf(-3, 3, false, 6)));
    cs.add(c("hardshrink", x -> x.get(0).hardshrink(0.4), false, leaf(-1, 1, false, 6)));
    cs.add(c("softshrink", x -> x.get(0).softshrink(0.4), false, leaf(-1, 1, false, 6)));
    cs.add(c("tanhshrink", x -> x.get(0).tanhshrink(), true, leaf(-2, 2, false, 4)));
    cs.add(c("softsign", x -> x.get(0).softsign(), true, leaf(-2, 2, false, 4)));
    cs.add(c("threshold", x -> x.get(0).threshold(0.1, -3.0), false, leaf(-1, 1, false, 6)));
    cs.add(c("hardtanh", x -> x.get(0).hardtanh(-0.5, 0.5), false, leaf(-1, 1, false, 6)));
    cs.add(c("relu6", x -> x.get(0).relu6(), false, leaf(-2, 8, false, 6)));
    cs.add(c("glu", x -> x.get(0).glu(1), true, leaf(-2, 2, true, 2, 4)));
    cs.add(c("prelu", x -> x.get(0).prelu(x.get(1)), true, leaf(-1, 1, false, 2, 3, 2), leaf(-1, 1, false, 3)));
    cs.add(c("lgamma", x -> x.get(0).lgamma(), true, leaf(0.5, 4, false, 4)));
    cs.add(c("digamma", x -> x.get(0).digamma(), false, leaf(0.5, 4, false, 4)));
    cs.add(c("sinc", x -> x.get(0).sinc(), true, leaf(-2, 2, false, 4)));
    cs.add(c("frac", x -> x.get(0).frac(), false, leaf(0.1, 0.9, false, 4)));
    cs.add(c("sinh", x -> x.get(0).sinh(), true, leaf(-2, 2, false, 4)));
    cs.add(c("cosh", x -> x.get(0).cosh(), true, leaf(-2, 2, true, 2, 2)));
    cs.add(c("asinh", x -> x.get(0).asinh(), true, leaf(-2, 2, false, 4)));
    cs.add(c("acosh", x -> x.get(0).acosh(), true, leaf(1.5, 3, false, 4)));
    cs.add(c("atanh", x -> x.get(0).atanh(), true, leaf(-0.8, 0.8, false, 4)));
    cs.add(c("log10", x -> x.get(0).log10(), true, leaf(0.5, 3, false, 4)));
    cs.add(c("erfc", x -> x.get(0).erfc(), true, leaf(-2, 2, false, 4)));
    cs.add(c("fmax", x -> x.get(0).fmax(x.get(1)), false, leaf(-1, 1, false, 2, 3), leaf(-1, 1, true, 3)));
    cs.add(c("fmin", x -> x.get(0).fmin(x.get(1)), false, leaf(-1, 1, true, 2, 3), leaf(-1, 1, false, 3)));
    cs.add(c("i0", x -> x.get(0).i0(), true, leaf(-10, 10, false, 4)));
    cs.add(c("i0e", x -> Special.i0e(x.get(0)), true, leaf(-10, 10, true, 2, 2)));
    cs.add(c("i1", x -> Special.i1(x.get(0)), true, leaf(-10, 10, false, 4)));
    cs.add(c("i1e", x -> Special.i1e(x.get(0)), true, leaf(-10, 10, false, 4)));
    cs.add(c("xlog1py", x -> Special.xlog1py(x.get(0), x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(-0.5, 2, true, 3)));
    cs.add(c("ldexp", x -> x.get(0).ldexp(x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(-3, 3, false, 3)));
    cs.add(c("frexp", x -> x.get(0).frexp().mantissa(), false, leaf(-10, 10, false, 4)));
    cs.add(c("polygamma", x -> x.get(0).polygamma(2), true, leaf(0.5, 4, false, 4)));
    cs.add(c("nansum", x -> x.get(0).nansum(1, false), true, leaf(-1, 1, true, 2, 3)));
    cs.add(c("nanmean", x -> x.get(0).nanmean(0, true), true, leaf(-1, 1, false, 3, 2)));
    // binary elementwise, broadcasting and non-contiguous
    cs.add(c("add alpha", x -> x.get(0).add(x.get(1), 2.5), true, leaf(-1, 1, true, 3, 2), leaf(-1, 1, false, 2)));
    cs.add(c("sub", x -> x.get(0).sub(x.get(1)), true, leaf(-1, 1, false, 2, 1), leaf(-1, 1, false, 1, 3)));
    cs.add(c("mul", x -> x.get(0).mul(x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(-1, 1, false, 3)));
    cs.add(c("atan2", x -> x.get(0).atan2(x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(0.5, 2, true, 2, 3)));
    cs.add(c("hypot", x -> x.get(0).hypot(x.get(1)), true, leaf(0.5, 2, false, 2, 3), leaf(-2, -0.5, true, 2, 3)));
    cs.add(c("logaddexp", x -> x.get(0).logaddexp(x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(-1, 1, false, 3)));
    cs.add(c("logaddexp2", x -> x.get(0).logaddexp2(x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(-1, 1, false, 3)));
    cs.add(c("xlogy", x -> x.get(0).xlogy(x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(0.5, 2, true, 2, 3)));
    cs.add(c("copysign", x -> x.get(0).copysign(x.get(1)), false, leaf(0.5, 2, false, 2, 3), leaf(-1, 1, false, 3)));
    cs.add(c("fmod", x -> x.get(0).fmod(x.get(1)), false, leaf(2.1, 2.9, false, 2, 3), leaf(1.1, 1.4, false, 3)));
    cs.add(c("div", x -> x.get(0).div(x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(0.5, 2, true, 2, 3)));
    cs.add(c("pow", x -> x.get(0).pow(x.get(1)), true, leaf(0.5, 2, false, 4), leaf(-1, 2, false, 4)));
    cs.add(c("pow scalar", x -> x.get(0).pow(3.0), true, leaf(-2, 2, false, 4)));
    cs.add(c("maximum", x -> x.get(0).maximum(x.get(1)), false, leaf(-1, 1, false, 5), leaf(-1, 1, false, 5)));
    cs.add(c("minimum", x -> x.get(0).minimum(x.get(1)), false, leaf(-1, 1, false, 1, 5), leaf(-1, 1, false, 3, 1)));
    cs.add(c("remainder", x -> x.get(0).remainder(x.get(1)), false, leaf(0.1, 2, false, 5), leaf(0.7, 0.9, false, 5)));
    cs.add(c("lerp", x -> x.get(0).lerp(x.get(1), x.get(2)), true, leaf(-1, 1, false, 4), leaf(-1, 1, false, 4), leaf(0, 1, false, 4)));
    cs.add(c("lerp scalar", x -> x.get(0).lerp(x.get(1), 0.3), true, leaf(-1, 1, false, 4), leaf(-1, 1, false, 2, 4)));
    cs.add(c("addcmul", x -> x.get(0).addcmul(x.get(1), x.get(2), 0.7), true, leaf(-1, 1, false, 2, 1), leaf(-1, 1, false, 3),
        leaf(-1, 1, true, 2, 3)));
    cs.add(c("addcdiv", x -> x.get(0).addcdiv(x.get(1), x.get(2), -1.5), true, leaf(-1, 1, false, 3), leaf(-1, 1, false, 2, 3),
        leaf(0.5, 2, false, 3)));
    cs.add(c("clamp tensors", x -> x.get(0).clamp(x.get(1), x.get(2)), false, leaf(-1, 1, false, 6), leaf(-0.6, -0.4, false, 6),
        leaf(0.4, 0.6, false, 6)));
    cs.add(c("where", x -> Tensor.where(x.get(0).gt(0.0), x.get(0), x.get(1)), false, leaf(-1, 1, false, 6), leaf(-1, 1, false, 6)));
    cs.add(c("maskedFill", x -> x.get(0).maskedFill(x.get(0).gt(0.0), 2.0), false, leaf(-1, 1, false, 6)));
    // reductions and scans
    cs.add(c("sum all", x -> x.get(0).sum(), true, leaf(-1, 1, true, 3, 2)));
    cs.add(c("sum dims", x -> x.get(0).sum(new int[] {0, 2}, false), true, leaf(-1, 1, false, 2, 3, 2)));
    cs.add(c("mean keepdim", x -> x.get(0).mean(1, true), true, leaf(-1, 1, false, 3, 4)));
    cs.add(c("prod", x -> x.get(0).prod(1, false), true, leaf(0.5, 1.5, false, 3, 4)));
    cs.add(c("prod with a zero", x -> x.get(0).mul(x.get(0).gt(-0.2)).prod(1, false), false, leaf(-1, 1, false, 2, 6)));
    cs.add(c("amax", x -> x.get(0).amax(new int[] {1}, false), false, leaf(-1, 1, false, 3, 4)));
    cs.add(c("amin", x -> x.get(0).amin(new int[] {0}, true), false, leaf(-1, 1, false, 3, 4)));
    cs.add(c("max dim", x -> x.get(0).max(1, false).values(), false, leaf(-1, 1, false, 3, 4)));
    cs.add(c("cumsum", x -> x.get(0).cumsum(1), true, leaf(-1, 1, false, 2, 4)));
    cs.add(c("cumprod", x -> x.get(0).cumprod(0), true, leaf(0.5, 1.5, false, 4, 2)));
    cs.add(c("cumprod with zeros", x -> x.get(0).mul(x.get(0).gt(-0.3)).cumprod(1), false, leaf(-1, 1, false, 3, 6)));
    cs.add(c("cummax", x -> x.get(0).cummax(1).values(), true, leaf(-1, 1, false, 3, 5)));
    cs.add(c("cummin", x -> x.get(0).cummin(0).values(), true, leaf(-1, 1, false, 4, 3)));
    cs.add(c("logcumsumexp", x -> x.get(0).logcumsumexp(1), true, leaf(-2, 2, false, 3, 4)));
    cs.add(c("cumsum to float64", x -> x.get(0).cumsum(0, org.jtensor.DType.FLOAT64), true, leaf(-1, 1, false, 4, 2)));
    cs.add(c("softmax", x -> x.get(0).softmax(1), true, leaf(-2, 2, false, 2, 4)));
    cs.add(c("logSoftmax", x -> x.get(0).logSoftmax(0), true, leaf(-2, 2, false, 3, 2)));
    cs.add(c("softmax transposed", x -> x.get(0).softmax(0), true, leaf(-2, 2, true, 3, 4)));
    cs.add(c("logSoftmax middle dim", x -> x.get(0).logSoftmax(1), true, leaf(-2, 2, false, 2, 3, 2)));
    cs.add(c("softmax of a product", x -> x.get(0).mul(x.get(1)).softmax(-1), true, leaf(-1, 1, false, 2, 3), leaf(-1, 1, false, 3)));
    cs.add(c("logsumexp", x -> x.get(0).logsumexp(new int[] {1}, false), true, leaf(-2, 2, false, 2, 3)));
    cs.add(c("var", x -> x.get(0).var(new int[] {1}, 1, false), true, leaf(-2, 2, false, 2, 4)));
    cs.add(c("std", x -> x.get(0).std(new int[] {0}, 1, false), false, leaf(-2, 2, false, 4, 2)));
    cs.add(c("norm", x -> x.get(0).norm(), false, leaf(-2, 2, false, 5)));
    // views
    cs.add(c("view", x -> x.get(0).view(3, 2), true, leaf(-1, 1, false, 2, 3)));
    cs.add(c("reshape copy", x -> x.get(0).reshape(6), true, leaf(-1, 1, true, 2, 3)));
    cs.add(c("transpose", x -> x.get(0).transpose(0, 1), true, leaf(-1, 1, false, 2, 3)));
    cs.add(c("permute", x -> x.get(0).permute(2, 0, 1), true, leaf(-1, 1, false, 2, 3, 2)));
    cs.add(c("expand", x -> x.get(0).expand(3, 4), true, leaf(-1, 1, false, 1, 4)));
    cs.add(c("narrow", x -> x.get(0).narrow(1, 1, 2), true, leaf(-1, 1, false, 3, 4)));
    cs.add(c("select", x -> x.get(0).select(0, 1), true, leaf(-1, 1, true, 3, 2)));
    cs.add(c("slice step", x -> x.get(0).slice(0, 0, 5, 2), true, leaf(-1, 1, false, 5)));
    cs.add(c("diagonal", x -> x.get(0).diagonal(), true, leaf(-1, 1, false, 3, 3)));
    cs.add(c("unfold overlapping", x -> x.get(0).unfold(0, 3, 1), true, leaf(-1, 1, false, 5)));
    cs.add(c("asStrided overlapping", x -> x.get(0).asStrided(new long[] {3, 2}, new long[] {1, 1}), false, leaf(-1, 1, false, 4)));
    cs.add(c("squeeze unsqueeze", x -> x.get(0).squeeze(1).unsqueeze(0), true, leaf(-1, 1, false, 3, 1)));
    cs.add(c("get basic", x -> x.get(0).get(Index.at(1), Index.slice(null, null, 2L)), true, leaf(-1, 1, false, 3, 4)));
    cs.add(c("split", x -> x.get(0).split(2, 0).get(1), true, leaf(-1, 1, false, 5)));
    // matrix products, every form
    cs.add(c("matmul 2d", x -> x.get(0).matmul(x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(-1, 1, true, 3, 2)));
    cs.add(c("matmul vec-mat", x -> x.get(0).matmul(x.get(1)), true, leaf(-1, 1, false, 3), leaf(-1, 1, false, 3, 2)));
    cs.add(c("matmul mat-vec", x -> x.get(0).matmul(x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(-1, 1, false, 3)));
    cs.add(c("dot", x -> x.get(0).dot(x.get(1)), true, leaf(-1, 1, false, 3), leaf(-1, 1, false, 3)));
    cs.add(c("matmul batched broadcast", x -> x.get(0).matmul(x.get(1)), true, leaf(-1, 1, false, 2, 1, 2, 3),
        leaf(-1, 1, false, 3, 3, 2)));
    cs.add(c("addmm", x -> x.get(0).addmm(x.get(1), x.get(2), 0.5, 2.0), true, leaf(-1, 1, false, 2), leaf(-1, 1, false, 3, 2),
        leaf(-1, 1, false, 2, 2)));
    cs.add(c("linear", x -> Tensor.linear(x.get(0), x.get(1), x.get(2)), true, leaf(-1, 1, false, 2, 3), leaf(-1, 1, false, 4, 3),
        leaf(-1, 1, false, 4)));
    cs.add(c("linear 3-d input, no bias", x -> Tensor.linear(x.get(0), x.get(1), null), true, leaf(-1, 1, false, 2, 2, 3),
        leaf(-1, 1, true, 4, 3)));
    // indexing, cat, stack, copies
    cs.add(c("indexSelect", x -> x.get(0).indexSelect(0, index(new long[] {2, 0, 2})), true, leaf(-1, 1, false, 3, 2)));
    cs.add(c("gather", x -> x.get(0).gather(1, gatherIndex()), true, leaf(-1, 1, false, 2, 3)));
    cs.add(c("scatterAdd", x -> x.get(0).scatterAdd(1, gatherIndex(), x.get(1)), true, leaf(-1, 1, false, 2, 3), leaf(-1, 1, false, 2, 3)));
    cs.add(c("scatterReduce sum", x -> x.get(0).scatterReduce(1, gatherIndex(), x.get(1), "sum"), true, leaf(-1, 1, false, 2, 3),
        leaf(-1, 1, false, 2, 3)));
    cs.add(c("scatterReduce mean, without self", x -> x.get(0).scatterReduce(1, gatherIndex(), x.get(1), "mean", false), true,
        leaf(-1, 1, false, 2, 3), leaf(-1, 1, false, 2, 3)));
    cs.add(c("scatter", x -> x.get(0).scatter(0, index(new long[] {1, 0, 2}, 1, 3), x.get(1)), false,
        leaf(-1, 1, false, 3, 3), leaf(-1, 1, false, 1, 3)));
    cs.add(c("get advanced, repeated", x -> x.get(0).get(Index.of(index(new long[] {2, 0, 2}))), true,
        leaf(-1, 1, false, 3, 2)));
    cs.add(c("get basic and advanced", x -> x.get(0).get(Index.slice(null, null, 2L), Index.of(index(new long[] {1, 1}))),
        true, leaf(-1, 1, true, 3, 2)));
    cs.add(c("maskedSelect", x -> x.get(0).maskedSelect(x.get(0).gt(0.0)), false, leaf(-1, 1, false, 2, 3)));
    cs.add(c("cat", x -> Tensor.cat(List.of(x.get(0), x.get(1)), 1), true, leaf(-1, 1, false, 2, 1), leaf(-1, 1, true, 2, 3)));
    cs.add(c("stack", x -> Tensor.stack(List.of(x.get(0), x.get(1)), 0), true, leaf(-1, 1, false, 3), leaf(-1, 1, false, 3)));
    cs.add(c("contiguous clone", x -> x.get(0).contiguous().clone(), true, leaf(-1, 1, true, 2, 3)));
    // convolution and pooling (nn.Functional over WindowOps' native im2col, col2im and max pooling)
    long[] one = {1}, two = {2};
    cs.add(c("conv1d groups 2, stride 2, padding 1, dilation 2", x -> Functional.conv1d(x.get(0), x.get(1), x.get(2), two, one, two, 2), true,
        leaf(-1, 1, false, 2, 4, 7), leaf(-1, 1, false, 6, 2, 3), leaf(-1, 1, false, 6)));
    cs.add(c("conv2d stride (1, 2), padding (1, 0)", x -> Functional.conv2d(x.get(0), x.get(1), x.get(2), new long[] {1, 2},
        new long[] {1, 0}, one, 1), true, leaf(-1, 1, false, 1, 2, 5, 4), leaf(-1, 1, false, 3, 2, 2, 3), leaf(-1, 1, false, 3)));
    cs.add(c("conv3d padding (0, 1, 0)", x -> Functional.conv3d(x.get(0), x.get(1), null, one, new long[] {0, 1, 0}, one, 1), false,
        leaf(-1, 1, false, 1, 1, 3, 4, 3), leaf(-1, 1, false, 2, 1, 2, 2, 2)));
    cs.add(c("conv2d padding same", x -> Functional.conv2d(x.get(0), x.get(1), null, one, "same", one, 1), false,
        leaf(-1, 1, false, 1, 1, 4, 4), leaf(-1, 1, false, 1, 1, 2, 3)));
    cs.add(c("unfold", x -> Functional.unfold(x.get(0), two, one, one, one), true, leaf(-1, 1, false, 1, 2, 3, 4)));
    cs.add(c("fold", x -> Functional.fold(x.get(0), new long[] {3, 4}, two, one, one, one), true, leaf(-1, 1, false, 1, 8, 20)));
    cs.add(c("maxPool2d kernel 3, stride 2, padding 1, ceil", x -> Functional.maxPool2d(x.get(0), new long[] {3}, two, one, one, true), true,
        leaf(-1, 1, false, 1, 2, 6, 5)));
    cs.add(c("maxPool1d dilation 2", x -> Functional.maxPool1d(x.get(0), two, one, one, two, false), false, leaf(-1, 1, false, 2, 7)));
    cs.add(c("adaptiveMaxPool2d to 3x2", x -> Functional.adaptiveMaxPool2d(x.get(0), new long[] {3, 2}), false, leaf(-1, 1, false, 1, 2, 5, 4)));
    // normalization (NormOps' fused kernels; the second order through their differentiable formula)
    cs.add(c("layerNorm over 2 dims", x -> Functional.layerNorm(x.get(0), 2, x.get(1), x.get(2), 1e-5), true,
        leaf(-1, 1, false, 3, 2, 3), leaf(0.5, 1.5, false, 2, 3), leaf(-1, 1, false, 2, 3)));
    cs.add(c("layerNorm without weight, transposed", x -> Functional.layerNorm(x.get(0), 1, null, null, 1e-5), false,
        leaf(-1, 1, true, 4, 5)));
    cs.add(c("groupNorm 2 groups", x -> Functional.groupNorm(x.get(0), 2, x.get(1), x.get(2), 1e-5), true,
        leaf(-1, 1, false, 2, 4, 3), leaf(0.5, 1.5, false, 4), leaf(-1, 1, false, 4)));
    cs.add(c("batchNorm training", x -> Functional.batchNorm(x.get(0), null, null, x.get(1), x.get(2), true, 0.1, 1e-5), true,
        leaf(-1, 1, false, 3, 2, 2), leaf(0.5, 1.5, false, 2), leaf(-1, 1, false, 2)));
    cs.add(c("batchNorm eval, running statistics", x -> Functional.batchNorm(x.get(0), values(0.1, -0.2), values(0.5, 1.5), x.get(1), x.get(2),
        false, 0.1, 1e-5), true, leaf(-1, 1, false, 3, 2, 2), leaf(0.5, 1.5, false, 2), leaf(-1, 1, false, 2)));
    return cs;
  }

  @TestFactory
  List<DynamicTest> firstOrder() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Case cs : cases()) {
      tests.add(dynamicTest(cs.name(), () -> {
        try {
          GradCheck.check(cs.f(), cs.inputs());
        } finally {
          for (Tensor t : cs.inputs()) t.close();
        }
      }));
    }
    return tests;
  }

  @TestFactory
  List<DynamicTest> secondOrder() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Case cs : cases()) {
      if (!cs.secondOrder()) {
        for (Tensor t : cs.inputs()) t.close();
        continue;
      }
      tests.add(dynamicTest(cs.name(), () -> {
        try {
          GradCheck.checkSecondOrder(cs.f(), cs.inputs(), 11);
        } finally {
          for (Tensor t : cs.inputs()) t.close();
        }
      }));
    }
    return tests;
  }
}
