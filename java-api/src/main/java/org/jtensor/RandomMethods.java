package org.jtensor;

import java.util.function.UnaryOperator;
import org.jtensor.core.ScalarTypes;
import org.jtensor.dispatch.RandomDraw;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.DataOps;
import org.jtensor.ops.ElementwiseChecks;
import org.jtensor.ops.Factories;
import org.jtensor.ops.Ops;
import org.jtensor.ops.Recorder;
import org.jtensor.ops.RandomOps;
import org.jtensor.ops.Sampling;

/**
 * Tensor's random ops, inherited by {@link Tensor}. Values come from a seeded {@link Generator}
 * (Philox, counter-based), so they depend on the seed and the draw order only, never on threads.
 */
public sealed interface RandomMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  /**
   * Indices of categories drawn from each row of self (1-D, or 2-D: one distribution a row, non-negative
   * weights, not necessarily summing to 1), int64 [numSamples] or [rows, numSamples] (torch.multinomial).
   */
  default Tensor multinomial(long numSamples, boolean replacement, Generator g) {
    return Sampling.multinomial(self(), numSamples, replacement, g);
  }

  /** torch.multinomial(p, n, replacement): from the default generator. */
  default Tensor multinomial(long numSamples, boolean replacement) {
    return Sampling.multinomial(self(), numSamples, replacement, Generator.defaultGenerator());
  }

  /** The same without replacement, from the default generator. */
  default Tensor multinomial(long numSamples) {
    return Sampling.multinomial(self(), numSamples, false, Generator.defaultGenerator());
  }

  /** Fills self with values uniform in [from, to). */
  default Tensor uniform_(double from, double to, Generator g) {
    TensorImpl t = impl("uniform_");
    requireFloat("uniform_", t);
    RandomOps.checkUniformBounds(t.dtype(), from, to);
    DataOps.checkWritable("uniform_", t);
    overwrite(Ops.UNIFORM_, "uniform_", t, () -> RandomOps.draw("uniform_", t, RandomDraw.Kind.UNIFORM53, g, from, to));
    return self();
  }

  /** Fills self with values drawn from N(mean, std^2). */
  default Tensor normal_(double mean, double std, Generator g) {
    TensorImpl t = impl("normal_");
    // NaN fails too, as PyTorch's TORCH_CHECK(std >= 0.0)
    if (!(std >= 0)) throw new IllegalArgumentException("normal_(): expects std >= 0.0, but found std " + std);
    requireFloat("normal_", t);
    DataOps.checkWritable("normal_", t);
    overwrite(Ops.NORMAL_, "normal_", t, () -> RandomOps.draw("normal_", t, RandomDraw.Kind.NORMAL, g, mean, std));
    return self();
  }

  /** Fills self with draws from the exponential distribution of rate lambd: −log(1 − u)/lambd (floating dtypes). */
  default Tensor exponential_(double lambd, Generator g) {
    TensorImpl t = impl("exponential_");
    if (!(lambd > 0)) throw new IllegalArgumentException("exponential_(): expects lambda > 0.0, but found lambda=" + number(lambd));
    continuous("exponential_", "Exponential", t);
    return transformed(Ops.EXPONENTIAL_, t, g, RandomDraw.Kind.UNIFORM53, 0, 1, u -> u.neg().log1p().mul(-1 / lambd));
  }

  default Tensor exponential_(double lambd) { return exponential_(lambd, Generator.defaultGenerator()); }

  /** Fills self with the number of Bernoulli(p) trials to the first success, ⌈log(1 − u)/log(1 − p)⌉ ≥ 1 (integer dtypes too). */
  default Tensor geometric_(double p, Generator g) {
    TensorImpl t = impl("geometric_");
    if (!(p > 0 && p < 1)) throw new IllegalArgumentException("geometric_(): expects p to be in (0, 1), but got p=" + number(p));
    if (t.dtype() == DType.BOOL) throw ScalarTypes.notImplemented("geometric_", "geometric_cpu", t.dtype());
    double logQ = Math.log1p(-p);
    return transformed(Ops.GEOMETRIC_, t, g, RandomDraw.Kind.UNIFORM53, 0, 1, u -> u.neg().log1p().div(logQ).ceil().clampMin(1.0));
  }

  default Tensor geometric_(double p) { return geometric_(p, Generator.defaultGenerator()); }

  /** Fills self with draws from the Cauchy distribution: median + sigma·tan(π(u − ½)) (floating dtypes). */
  default Tensor cauchy_(double median, double sigma, Generator g) {
    TensorImpl t = impl("cauchy_");
    if (!(sigma > 0)) throw new IllegalArgumentException("cauchy_(): expects sigma > 0.0, but found sigma=" + number(sigma));
    continuous("cauchy_", "Cauchy", t);
    return transformed(Ops.CAUCHY_, t, g, RandomDraw.Kind.UNIFORM53, 0, 1, u -> u.sub(0.5).mul(Math.PI).tan().mul(sigma).add(median));
  }

  default Tensor cauchy_(double median, double sigma) { return cauchy_(median, sigma, Generator.defaultGenerator()); }

  /** Fills self with exp(N(mean, std²)): mean and std are the underlying normal's (floating dtypes). */
  default Tensor logNormal_(double mean, double std, Generator g) {
    TensorImpl t = impl("logNormal_");
    if (!(std > 0)) throw new IllegalArgumentException("logNormal_(): expects std > 0.0, but found std=" + number(std));
    if (!t.dtype().isFloatingPoint()) throw ScalarTypes.notImplemented("logNormal_", "log_normal_cpu", t.dtype());
    return transformed(Ops.LOG_NORMAL_, t, g, RandomDraw.Kind.NORMAL, mean, std, Tensor::exp);
  }

  default Tensor logNormal_(double mean, double std) { return logNormal_(mean, std, Generator.defaultGenerator()); }

  /** Fills self with integers uniform in [from, to) (any dtype but bool's range past [0, 2); from and to − 1 must fit it). */
  default Tensor random_(long from, long to, Generator g) {
    TensorImpl t = impl("random_");
    Factories.checkRandomRange("random_", from, to, t.dtype());
    DataOps.checkWritable("random_", t);
    // to − from as unsigned, as randint's: the kernel takes the range mod 2^64
    overwrite(Ops.RANDOM_, "random_", t, () -> RandomOps.draw("random_", t, RandomDraw.Kind.INTEGERS, g, from, to - from, null));
    return self();
  }

  default Tensor random_(long from, long to) { return random_(from, to, Generator.defaultGenerator()); }

  /** Integers uniform in [0, to). */
  default Tensor random_(long to, Generator g) { return random_(0, to, g); }

  default Tensor random_(long to) { return random_(0, to, Generator.defaultGenerator()); }

  /** PyTorch's refusal of a continuous distribution's draw into an integer or bool tensor. */
  private static void continuous(String op, String distribution, TensorImpl t) {
    if (!t.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(op + "(): " + distribution + " distribution is a continuous probability distribution. dtype must be a floating point but you specified "
          + ScalarTypes.name(t.dtype()));
    }
  }

  /** A float64 draw of kind over self's shape and device, transformed by f and written into t as op's node. */
  private Tensor transformed(org.jtensor.dispatch.Op op, TensorImpl t, Generator g, RandomDraw.Kind kind, double a, double b, UnaryOperator<Tensor> f) {
    String name = op.inPlaceName;
    DataOps.checkWritable(name, t);
    try (TensorScope s = TensorScope.open()) {
      Tensor draws = Tensor.wrap(DataOps.empty(name, t.sizes(), DType.FLOAT64, t.device()));
      RandomOps.draw(name, draws.impl(name), kind, g, a, b);
      Tensor v = f.apply(draws);
      overwrite(op, name, t, () -> DataOps.copyInto(name, t, v.impl(name)));
    }
    return self();
  }

  /** A parameter as PyTorch's messages print it: 0 for 0.0, nan, inf. */
  private static String number(double v) {
    if (Double.isNaN(v)) return "nan";
    if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }

  /**
   * Runs a draw into t as a node of the graph when t records (PyTorch's UniformBackward0 and
   * NormalBackward0: no gradient reaches t's history; a leaf that requires grad is refused).
   */
  private static void overwrite(org.jtensor.dispatch.Op op, String name, TensorImpl t, Runnable draw) {
    Recorder.Pending rec = Recorder.active(t) ? Recorder.begin(op, name, new TensorImpl[] {t}, null, null, null, t) : null;
    Recorder.complete(rec, draw, t, null);
  }

  /** A tensor of 0s and 1s, each 1 with the probability in self (which must lie in [0, 1]). */
  default Tensor bernoulli(Generator g) {
    TensorImpl t = impl("bernoulli");
    requireFloat("bernoulli", t);
    // The output first: a refused one leaves nothing retained (the probabilities' copy would leak).
    TensorImpl out = DataOps.emptyLike("bernoulli", t, t.dtype(), t.device());
    TensorImpl p;
    try {
      p = t.dtype() == DType.FLOAT64 ? retained(t) : DataOps.cloneAs("bernoulli", t, t.meta(), DType.FLOAT64, t.device(), false);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
    try {
      RandomOps.draw("bernoulli", out, RandomDraw.Kind.BERNOULLI_TENSOR, g, 0, 0, p);
      return Tensor.wrap(out);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    } finally {
      p.release();
    }
  }

  /** A tensor shaped and typed as self (torch.bernoulli(input, p): int64 in, int64 out) of 0s and 1s, each 1 with probability p. */
  default Tensor bernoulli(double p, Generator g) {
    TensorImpl t = impl("bernoulli");
    if (!(p >= 0 && p <= 1)) throw new IllegalArgumentException("bernoulli(): p must be in [0, 1], got " + p);
    TensorImpl out = DataOps.emptyLike("bernoulli", t, t.dtype(), t.device());
    try {
      RandomOps.draw("bernoulli", out, RandomDraw.Kind.BERNOULLI, g, p, 0);
      return Tensor.wrap(out);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  private static TensorImpl retained(TensorImpl t) {
    t.retain();
    return t;
  }

  /** Zeroes each element with probability p and scales the rest by 1/(1-p); identity when not training. */
  default Tensor dropout(double p, boolean training, Generator g) {
    if (!(p >= 0 && p <= 1)) throw new IllegalArgumentException("dropout(): dropout probability has to be between 0 and 1, but got " + p);
    TensorImpl t = impl("dropout");
    if (!training || p == 0) return self().same("dropout");  // the input itself, as F.dropout gives it
    if (p == 1) {  // PyTorch's input * zeros({}, input.options()): int64 and bool inputs keep their dtype
      try (Tensor zero = Tensor.zeros(new long[0], t.dtype(), t.device())) {
        return self().mul(zero);
      }
    }
    if (!t.dtype().isFloatingPoint() && t.numel() > 0) {  // PyTorch's noise.div_(1 - p) on a noise of self's dtype
      throw new IllegalArgumentException("dropout(): " + ElementwiseChecks.cannotCast(DType.DEFAULT_FLOAT, t.dtype()));
    }
    try (Tensor keep = bernoulli(1 - p, g); Tensor kept = self().mul(keep)) {
      return kept.div(1 - p);
    }
  }

  private static void requireFloat(String op, TensorImpl t) {
    if (!t.dtype().isFloatingPoint()) {
      throw new UnsupportedOperationException(op + "(): expects a floating point tensor, got " + t.dtype());
    }
  }
}
