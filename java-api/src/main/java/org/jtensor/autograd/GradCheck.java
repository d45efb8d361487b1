package org.jtensor.autograd;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.autograd.gradcheck and gradgradcheck: a function's analytic Jacobian (from backward, one
 * output element at a time) against central differences, element by element, in float64. Inputs
 * that require grad are the ones checked; they may be views of any layout (the finite differences
 * run on contiguous copies holding the same values, on the input's device). A mismatch throws
 * IllegalStateException naming the input, the elements and both values.
 */
public final class GradCheck {
  private GradCheck() {}

  public static final double EPS = 1e-6, ATOL = 1e-5, RTOL = 1e-3;

  /** First order: f's Jacobian with respect to each input that requires grad. */
  public static void check(Function<List<Tensor>, Tensor> f, List<Tensor> inputs) {
    check(f, inputs, EPS, ATOL, RTOL);
  }

  public static void check(Function<List<Tensor>, Tensor> f, List<Tensor> inputs, double eps, double atol, double rtol) {
    for (Tensor x : inputs) {
      if (x.requiresGrad() && x.dtype() != DType.FLOAT64) {
        throw new IllegalArgumentException("GradCheck.check(): inputs that require grad must be float64, got " + x.dtype());
      }
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor out = f.apply(inputs);
      int n = (int) out.numel();
      double[][] analytic = analytic(out, inputs);
      for (int i = 0; i < inputs.size(); i++) {
        Tensor x = inputs.get(i);
        if (!x.requiresGrad()) continue;
        double[] base = x.toDoubleArray();
        for (int j = 0; j < base.length; j++) {
          double[] plus = evaluate(f, inputs, i, base, j, eps), minus = evaluate(f, inputs, i, base, j, -eps);
          for (int k = 0; k < n; k++) {
            double numeric = (plus[k] - minus[k]) / (2 * eps);
            double got = analytic[i] == null ? 0 : analytic[i][k * base.length + j];
            if (Math.abs(got - numeric) > atol + rtol * Math.abs(numeric) || Double.isNaN(got) != Double.isNaN(numeric)) {
              throw new IllegalStateException("GradCheck: Jacobian mismatch for output element " + k + " with respect to "
                  + "input " + i + " element " + j + ": numerical " + numeric + ", analytical " + got);
            }
          }
        }
      }
    }
  }

  /**
   * Second order (gradgradcheck): the gradient of f, weighted by fixed random output gradients
   * and computed with createGraph, is itself checked as a function of the inputs.
   */
  public static void checkSecondOrder(Function<List<Tensor>, Tensor> f, List<Tensor> inputs, long seed) {
    long[] shape;
    org.jtensor.Device device;
    try (TensorScope s = TensorScope.open()) {
      Tensor out = f.apply(inputs);
      shape = out.shape();
      device = out.device();
    }
    try (Tensor drawn = Tensor.randn(shape, DType.FLOAT64, new org.jtensor.Generator(seed)); Tensor v = drawn.to(device)) {
      check(xs -> {
        Tensor out = f.apply(xs);
        List<Tensor> wrt = new ArrayList<>();
        for (Tensor x : xs) if (x.requiresGrad()) wrt.add(x);
        List<Tensor> g = Autograd.grad(List.of(out), List.of(v), wrt, true, true, true);
        List<Tensor> flat = new ArrayList<>();
        for (int i = 0; i < g.size(); i++) {
          flat.add(g.get(i) == null ? Tensor.zeros(new long[] {wrt.get(i).numel()}, DType.FLOAT64, wrt.get(i).device()) : g.get(i).reshape(-1));
        }
        return Tensor.cat(flat, 0);
      }, inputs);
    }
  }

  /** Row k of the Jacobian, for each input: d out[k] / d input, flattened; null for inputs without grad. */
  private static double[][] analytic(Tensor out, List<Tensor> inputs) {
    List<Tensor> wrt = new ArrayList<>();
    for (Tensor x : inputs) if (x.requiresGrad()) wrt.add(x);
    double[][] jac = new double[inputs.size()][];
    int n = (int) out.numel();
    for (int i = 0; i < inputs.size(); i++) if (inputs.get(i).requiresGrad()) jac[i] = new double[(int) (n * inputs.get(i).numel())];
    if (!out.requiresGrad()) return jac;  // a function that does not depend on its inputs: all zeros
    for (int k = 0; k < n; k++) {
      double[] onehot = new double[n];
      onehot[k] = 1;
      try (TensorScope s = TensorScope.open()) {
        Tensor gOut = Tensor.fromArray(onehot).reshape(out.shape()).to(out.dtype()).to(out.device());
        List<Tensor> g = Autograd.grad(List.of(out), List.of(gOut), wrt, true, false, true);
        for (int i = 0, w = 0; i < inputs.size(); i++) {
          if (!inputs.get(i).requiresGrad()) continue;
          Tensor gi = g.get(w++);
          if (gi == null) continue;
          double[] row = gi.toDoubleArray();
          System.arraycopy(row, 0, jac[i], k * row.length, row.length);
        }
      }
    }
    return jac;
  }

  /** f's output, as doubles, with element j of input i moved by delta (on a contiguous copy). */
  private static double[] evaluate(Function<List<Tensor>, Tensor> f, List<Tensor> inputs, int i, double[] base, int j, double delta) {
    try (TensorScope s = TensorScope.open()) {
      double[] moved = base.clone();
      moved[j] += delta;
      List<Tensor> xs = new ArrayList<>(inputs);
      Tensor x = Tensor.fromArray(moved).reshape(inputs.get(i).shape()).to(inputs.get(i).device());
      xs.set(i, x.requiresGrad_(true));
      return f.apply(xs).toDoubleArray();
    }
  }
}
