package org.jtensor.benchmarks.peers;

import java.util.concurrent.TimeUnit;
import org.bytedeco.pytorch.Adam;
import org.bytedeco.pytorch.AdamOptions;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;
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

/** TrainingStepBenchmark's models and step in libtorch from Java: functional layers, torch::optim::Adam. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class LibtorchTrainingStepBenchmark {
  @Param({"mlp", "cnn"})
  public String model;

  Tensor[] params;
  Adam opt;
  Tensor x, y;

  private static Tensor param(long... shape) {
    return torch.randn(shape).mul_(new org.bytedeco.pytorch.Scalar(0.05)).requires_grad_(true);
  }

  @Setup
  public void setup() {
    torch.set_num_threads(Runtime.getRuntime().availableProcessors());
    torch.manual_seed(0);
    if (model.equals("mlp")) {
      params = new Tensor[] {param(256, 784), param(256), param(128, 256), param(128), param(10, 128), param(10)};
      x = torch.randn(128, 784);
    } else {
      params = new Tensor[] {param(16, 1, 3, 3), param(16), param(32, 16, 3, 3), param(32), param(128, 32 * 7 * 7), param(128),
          param(10, 128), param(10)};
      x = torch.randn(128, 1, 28, 28);
    }
    y = torch.randint(10, new long[] {128});
    opt = new Adam(new TensorVector(params), new AdamOptions(1e-3));
  }

  @TearDown
  public void tearDown() {
    opt.close();
  }

  private Tensor forward() {
    if (model.equals("mlp")) {
      Tensor h = torch.relu(torch.linear(x, params[0], new TensorOptional(params[1])));
      h = torch.relu(torch.linear(h, params[2], new TensorOptional(params[3])));
      return torch.linear(h, params[4], new TensorOptional(params[5]));
    }
    long[] one = {1, 1}, two = {2, 2}, zero = {0, 0};
    Tensor h = torch.conv2d(x, params[0], new TensorOptional(params[1]), one, one, one, 1);
    h = torch.max_pool2d(torch.relu(h), two, two, zero, one, false);
    h = torch.conv2d(h, params[2], new TensorOptional(params[3]), one, one, one, 1);
    h = torch.max_pool2d(torch.relu(h), two, two, zero, one, false).flatten(1, -1);
    h = torch.relu(torch.linear(h, params[4], new TensorOptional(params[5])));
    return torch.linear(h, params[6], new TensorOptional(params[7]));
  }

  @Benchmark
  public double step() {
    opt.zero_grad();
    Tensor loss = torch.cross_entropy_loss(forward(), y);
    loss.backward();
    opt.step();
    return loss.item_double();
  }
}
