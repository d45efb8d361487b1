package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/** Modules, losses and their gradients against hand computations in plain Java. */
class NnTest {
  @Test
  void linearIsInitialisedAsPyTorchDoesAndNamesItsParameters() {
    try (Linear l = new Linear(50, 7, new Generator(1))) {
      Map<String, Tensor> p = l.namedParameters();
      assertEquals(List.of("weight", "bias"), List.copyOf(p.keySet()));
      assertArrayEquals(new long[] {7, 50}, l.weight().shape());
      double bound = 1 / Math.sqrt(50);
      for (double w : l.weight().toDoubleArray()) assertTrue(Math.abs(w) <= bound);
      for (double b : l.bias().toDoubleArray()) assertTrue(Math.abs(b) <= bound);
      assertTrue(l.weight().requiresGrad() && l.weight().isLeaf());
    }
  }

  @Test
  void sequentialNamesNestedParametersAndRoundTripsItsState() {
    try (Sequential a = new Sequential(new Linear(3, 4, new Generator(1)), new ReLU(), new Linear(4, 2, new Generator(2)));
         Sequential b = new Sequential(new Linear(3, 4, new Generator(3)), new ReLU(), new Linear(4, 2, new Generator(4)))) {
      assertEquals(List.of("0.weight", "0.bias", "2.weight", "2.bias"), List.copyOf(a.namedParameters().keySet()));
      Map<String, Tensor> state = a.stateDict();
      try {
        b.loadStateDict(state);
      } finally {
        state.values().forEach(Tensor::close);
      }
      for (String k : a.namedParameters().keySet()) {
        assertArrayEquals(a.namedParameters().get(k).toDoubleArray(), b.namedParameters().get(k).toDoubleArray(), 0);
      }
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.loadStateDict(Map.of()));
      assertTrue(e.getMessage().contains("Missing key(s) in state_dict: \"0.weight\", \"0.bias\", \"2.weight\", \"2.bias\"."), e.getMessage());
    }
  }

  @Test
  void crossEntropyMatchesItsDefinitionWithIgnoreIndexAndLabelSmoothing() {
    double[][] logits = {{1.0, 2.0, 0.5}, {-1.0, 0.0, 3.0}, {0.2, 0.1, -0.3}};
    long[] target = {1, 2, -100};
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.fromArray(new double[] {1.0, 2.0, 0.5, -1.0, 0.0, 3.0, 0.2, 0.1, -0.3}).reshape(3, 3).requiresGrad_();
      Tensor t = Tensor.fromArray(target);
      double eps = 0.1;
      Tensor loss = Functional.crossEntropy(x, t, -100, eps, Reduction.MEAN);
      double want = 0;
      double[][] grad = new double[3][3];
      for (int i = 0; i < 2; i++) {  // row 2 is ignored
        double max = Math.max(logits[i][0], Math.max(logits[i][1], logits[i][2])), z = 0;
        for (double v : logits[i]) z += Math.exp(v - max);
        double[] logp = new double[3];
        for (int c = 0; c < 3; c++) logp[c] = logits[i][c] - max - Math.log(z);
        double smooth = -(logp[0] + logp[1] + logp[2]) / 3;
        want += ((1 - eps) * -logp[(int) target[i]] + eps * smooth) / 2;
        for (int c = 0; c < 3; c++) {
          double q = (c == target[i] ? 1 - eps : 0) + eps / 3;  // the smoothed target
          grad[i][c] = (Math.exp(logp[c]) - q) / 2;
        }
      }
      assertEquals(want, loss.item(), 1e-12);
      loss.backward();
      double[] g = x.grad().toDoubleArray();
      for (int i = 0; i < 3; i++) for (int c = 0; c < 3; c++) assertEquals(grad[i][c], g[i * 3 + c], 1e-12);
    }
  }

  @Test
  void lossesOfTheBinaryAndRegressionKinds() {
    try (TensorScope s = TensorScope.open()) {
      Tensor p = Tensor.fromArray(new double[] {0.2, 0.9});
      Tensor y = Tensor.fromArray(new double[] {0.0, 1.0});
      double bce = -(Math.log(0.8) + Math.log(0.9)) / 2;
      assertEquals(bce, Functional.binaryCrossEntropy(p, y, Reduction.MEAN).item(), 1e-12);
      Tensor logits = Tensor.fromArray(new double[] {-1.3862943611198906, 2.1972245773362196});  // logit(0.2), logit(0.9)
      assertEquals(bce, Functional.binaryCrossEntropyWithLogits(logits, y, Reduction.MEAN).item(), 1e-12);
      assertEquals((0.04 + 0.01) / 2, Functional.mseLoss(p, y).item(), 1e-12);
      assertArrayEquals(new long[] {0, 0, 1, 1, 0, 0}, Functional.oneHot(Tensor.fromArray(new long[] {2, 0}), 3).toLongArray());
    }
  }

  @Test
  void crossEntropyRefusesTargetsOfTheWrongShape() {
    try (Tensor x = Tensor.zeros(2, 3); Tensor t = Tensor.fromArray(new long[] {0, 1, 2})) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Functional.crossEntropy(x, t));
      assertTrue(e.getMessage().contains("Expected input batch_size (2) to match target batch_size (3)."), e.getMessage());  // PyTorch 2.13's words
    }
  }

  @Test
  void dropoutIsTheIdentityInEvalAndScalesWhileTraining() {
    try (Dropout d = new Dropout(0.5, new Generator(3)); TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.ones(1000);
      double sum = d.forward(x).sum().item();
      assertTrue(Math.abs(sum - 1000) < 150, "kept elements are doubled: " + sum);
      d.eval();
      assertArrayEquals(x.toDoubleArray(), d.forward(x).toDoubleArray(), 0);
    }
  }

  @Test
  void floatDefaultsStayFloat32() {
    try (Linear l = new Linear(2, 2, new Generator(5)); TensorScope s = TensorScope.open()) {
      assertEquals(DType.FLOAT32, l.forward(Tensor.ones(3, 2)).dtype());
    }
  }

  @Test
  void conv2dMatchesADirectLoopAndItsGradientsCheck() {
    Generator g = new Generator(9);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {2, 3, 5, 6}, org.jtensor.DType.FLOAT64, g);
      Tensor w = Tensor.randn(new long[] {4, 3, 3, 3}, org.jtensor.DType.FLOAT64, g);
      Tensor b = Tensor.randn(new long[] {4}, org.jtensor.DType.FLOAT64, g);
      int stride = 2, pad = 1;
      Tensor y = Functional.conv2d(x, w, b, stride, pad);
      assertArrayEquals(new long[] {2, 4, 3, 3}, y.shape());
      double[] xv = x.toDoubleArray(), wv = w.toDoubleArray(), bv = b.toDoubleArray(), yv = y.toDoubleArray();
      for (int n = 0; n < 2; n++) for (int o = 0; o < 4; o++) for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) {
        double acc = bv[o];
        for (int c = 0; c < 3; c++) for (int ki = 0; ki < 3; ki++) for (int kj = 0; kj < 3; kj++) {
          int r = i * stride - pad + ki, q = j * stride - pad + kj;
          if (r < 0 || r >= 5 || q < 0 || q >= 6) continue;
          acc += xv[((n * 3 + c) * 5 + r) * 6 + q] * wv[((o * 3 + c) * 3 + ki) * 3 + kj];
        }
        assertEquals(acc, yv[((n * 4 + o) * 3 + i) * 3 + j], 1e-12);
      }
      Tensor xs = Tensor.randn(new long[] {2, 2, 4, 4}, org.jtensor.DType.FLOAT64, g).requiresGrad_();
      Tensor ws = Tensor.randn(new long[] {2, 2, 3, 3}, org.jtensor.DType.FLOAT64, g).requiresGrad_();
      Tensor bs = Tensor.randn(new long[] {2}, org.jtensor.DType.FLOAT64, g).requiresGrad_();
      org.jtensor.autograd.GradCheck.check(in -> Functional.conv2d(in.get(0), in.get(1), in.get(2), 1, 1), List.of(xs, ws, bs));
      org.jtensor.autograd.GradCheck.check(in -> Functional.maxPool2d(in.get(0), 2), List.of(xs));
      org.jtensor.autograd.GradCheck.check(in -> Functional.maxPool2d(Functional.conv2d(in.get(0), in.get(1), in.get(2), 1, 1), 2),
          List.of(xs, ws, bs));
      org.jtensor.autograd.GradCheck.check(in -> Functional.avgPool2d(in.get(0), 2), List.of(xs));
    }
  }

  @Test
  void normalizationLayersAndEmbedding() {
    Generator g = new Generator(21);
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {4, 3, 2}, org.jtensor.DType.FLOAT64, g).requiresGrad_();
      Tensor w = Tensor.randn(new long[] {2}, org.jtensor.DType.FLOAT64, g).requiresGrad_();
      Tensor b = Tensor.randn(new long[] {2}, org.jtensor.DType.FLOAT64, g).requiresGrad_();
      org.jtensor.autograd.GradCheck.check(in -> Functional.layerNorm(in.get(0), 1, in.get(1), in.get(2), 1e-5), List.of(x, w, b));
      Tensor cw = Tensor.randn(new long[] {3}, org.jtensor.DType.FLOAT64, g).requiresGrad_();
      Tensor cb = Tensor.randn(new long[] {3}, org.jtensor.DType.FLOAT64, g).requiresGrad_();
      org.jtensor.autograd.GradCheck.check(in -> Functional.batchNorm(in.get(0), null, null, in.get(1), in.get(2), true, 0.1, 1e-5),
          List.of(x, cw, cb));
      // LayerNorm's output has zero mean and unit (biased) variance per row
      double[] y = Functional.layerNorm(x, 2, null, null, 0).toDoubleArray();
      for (int r = 0; r < 4; r++) {
        double m = 0, v = 0;
        for (int k = 0; k < 6; k++) m += y[r * 6 + k] / 6;
        for (int k = 0; k < 6; k++) v += (y[r * 6 + k] - m) * (y[r * 6 + k] - m) / 6;
        assertEquals(0, m, 1e-12);
        assertEquals(1, v, 1e-9);
      }
    }
    try (BatchNorm bn = BatchNorm.batchNorm1d(2); TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.fromArray(new float[] {1, 10, 3, 20, 5, 30}, 3, 2);  // channel means 3 and 20, unbiased vars 4 and 100
      bn.forward(x);
      Tensor rm = bn.namedBuffers().get("running_mean"), rv = bn.namedBuffers().get("running_var");
      assertArrayEquals(new double[] {0.3, 2.0}, rm.toDoubleArray(), 1e-6);
      assertArrayEquals(new double[] {0.9 + 0.4, 0.9 + 10.0}, rv.toDoubleArray(), 1e-5);
      bn.eval();
      double[] y = bn.forward(x).toDoubleArray();
      assertEquals((1 - 0.3) / Math.sqrt(1.3 + 1e-5), y[0], 1e-5);
    }
    try (Embedding e = new Embedding(5, 3, g); TensorScope s = TensorScope.open()) {
      Tensor rows = e.forward(Tensor.fromArray(new long[] {4, 0, 4, 1}).reshape(2, 2));
      assertArrayEquals(new long[] {2, 2, 3}, rows.shape());
      rows.sum().backward();
      double[] grad = e.weight().grad().toDoubleArray();
      assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2}, grad, 0);
    }
  }
}
