package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.nn.TransformerEncoderLayer;
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
 * A BERT-base encoder layer (768 wide, 12 heads, feed-forward 3072, GELU, post-norm, batch first)
 * over a batch of 8 sequences of 128 tokens, float32, as a sentence-embedding server runs it:
 * inference (eval, no grad) without and with a key padding mask (the last 32 tokens of every other
 * sequence padded), and a fine-tuning step's forward + backward in training mode (dropout 0.1).
 * benchmarks/peers/torch_cpu_transformer_peer.py times the same layer in PyTorch.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class TransformerBenchmark {
  static final long BATCH = 8, TOKENS = 128, WIDTH = 768, HEADS = 12, FEEDFORWARD = 3072, PADDED = 32;
  TransformerEncoderLayer layer;
  Tensor src, padding, ones;

  @Setup
  public void setup() {
    Generator g = new Generator(0);
    layer = new TransformerEncoderLayer(WIDTH, HEADS, FEEDFORWARD, 0.1, "gelu", 1e-5, true, false, g);
    src = Tensor.randn(new long[] {BATCH, TOKENS, WIDTH}, g);
    padding = Tensor.zeros(new long[] {BATCH, TOKENS}, DType.BOOL);
    for (long b = 0; b < BATCH; b += 2) padding.select(0, b).narrow(0, TOKENS - PADDED, PADDED).fill_(1);
    ones = Tensor.ones(BATCH, TOKENS, WIDTH);
  }

  @TearDown
  public void tearDown() {
    layer.close();
    for (Tensor t : new Tensor[] {src, padding, ones}) t.close();
  }

  @Benchmark
  public void encoderLayerInference() {
    layer.eval();
    try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
      layer.forward(src);
    }
  }

  @Benchmark
  public void encoderLayerInferencePadded() {
    layer.eval();
    try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
      layer.forward(src, null, padding, false);
    }
  }

  @Benchmark
  public void encoderLayerTrainingForwardBackward() {
    layer.train();
    try (TensorScope s = TensorScope.open()) {
      layer.forward(src).backward(ones);
    }
    layer.zeroGrad();
  }
}
