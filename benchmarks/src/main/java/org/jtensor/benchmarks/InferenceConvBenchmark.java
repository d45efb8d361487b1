package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.nn.Functional;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * An inference server's convolutions: a ResNet's 3 x 3, stride-1, padding-1 layers C -> C at
 * batch 1 (and the last stage at batch 8), forward only under no_grad, float32; and the same
 * layers fine-tuned at those batches (forward, then the input's and the weight's gradients). The
 * layer is "batch x channels @ size". benchmarks/peers/torch_cpu_inference_conv_peer.py times the
 * same in PyTorch; run both in one command and report the ratio (docs/performance.md, sessions 35, 36).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class InferenceConvBenchmark {
  @Param({"1x512@7", "1x256@14", "1x128@28", "1x64@56", "8x512@7"})
  public String layer;

  Tensor x, w, b, xg, wg, up;

  @Setup
  public void setup() {
    String[] p = layer.split("[x@]");
    long n = Long.parseLong(p[0]), c = Long.parseLong(p[1]), hw = Long.parseLong(p[2]);
    Generator g = new Generator(0);
    x = Tensor.randn(new long[] {n, c, hw, hw}, g);
    w = Tensor.randn(new long[] {c, c, 3, 3}, g).mul(0.05);
    b = Tensor.randn(new long[] {c}, g);
    xg = x.detach().requiresGrad_();
    wg = w.detach().requiresGrad_();
    up = Tensor.randn(new long[] {n, c, hw, hw}, g);
  }

  @TearDown
  public void tearDown() {
    for (Tensor t : new Tensor[] {x, w, b, xg, wg, up}) t.close();
  }

  @Benchmark
  public double conv2dForward() {
    try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
      return Functional.conv2d(x, w, b, new long[] {1}, new long[] {1}, new long[] {1}, 1).sum().item();
    }
  }

  /** Forward, then the input's and the weight's gradients (Note [Few positions, the input's gradient]). */
  @Benchmark
  public double conv2dBackward() {
    try (TensorScope s = TensorScope.open()) {
      Tensor y = Functional.conv2d(xg, wg, b, new long[] {1}, new long[] {1}, new long[] {1}, 1);
      java.util.List<Tensor> g = org.jtensor.autograd.Autograd.grad(java.util.List.of(y), java.util.List.of(up),
          java.util.List.of(xg, wg), false, false, false);
      return g.get(0).sum().item() + g.get(1).sum().item();
    }
  }
}
