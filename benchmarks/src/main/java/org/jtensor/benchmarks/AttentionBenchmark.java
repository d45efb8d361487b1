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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 20's attention case on the CPU: scaledDotProductAttention over q, k, v [4, 8, 1024, 64]
 * float32, causal and not, forward alone and forward + backward (backward(ones), as PyTorch's
 * figure was taken), and the same causal attention composed of matmul, maskedFill, softmax and
 * matmul. benchmarks/peers/torch_cpu_attention_peer.py times the same in PyTorch.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class AttentionBenchmark {
  Tensor q, k, v, ones, later;

  @Setup
  public void setup() {
    Generator g = new Generator(0);
    q = Tensor.randn(new long[] {4, 8, 1024, 64}, g).requiresGrad_();
    k = Tensor.randn(new long[] {4, 8, 1024, 64}, g).requiresGrad_();
    v = Tensor.randn(new long[] {4, 8, 1024, 64}, g).requiresGrad_();
    ones = Tensor.ones(4, 8, 1024, 64);
    later = Tensor.ones(new long[] {1024, 1024}, org.jtensor.DType.BOOL).triu(1);
  }

  @TearDown
  public void tearDown() {
    for (Tensor t : new Tensor[] {q, k, v, ones, later}) t.close();
  }

  private void clear() {
    q.setGrad(null);
    k.setGrad(null);
    v.setGrad(null);
  }

  private void forwardBackward(boolean causal) {
    try (TensorScope s = TensorScope.open()) {
      Functional.scaledDotProductAttention(q, k, v, null, 0, causal).backward(ones);
    }
    clear();
  }

  @Benchmark
  public void causalForwardBackward() {
    forwardBackward(true);
  }

  @Benchmark
  public void forwardBackward() {
    forwardBackward(false);
  }

  @Benchmark
  public void causalForward() {
    try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
      Functional.scaledDotProductAttention(q, k, v, null, 0, true);
    }
  }

  @Benchmark
  public void composedCausalForwardBackward() {
    try (TensorScope s = TensorScope.open()) {
      Tensor scores = q.matmul(k.transpose(-2, -1)).div(8.0).maskedFill(later, Double.NEGATIVE_INFINITY);
      scores.softmax(-1).matmul(v).backward(ones);
    }
    clear();
  }
}
