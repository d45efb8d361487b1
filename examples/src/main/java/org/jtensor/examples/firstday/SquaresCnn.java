package org.jtensor.examples.firstday;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Index;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.io.Tensors;
import org.jtensor.nn.BatchNorm2d;
import org.jtensor.nn.Conv2d;
import org.jtensor.nn.Dropout;
import org.jtensor.nn.Flatten;
import org.jtensor.nn.Functional;
import org.jtensor.nn.LayerOptions;
import org.jtensor.nn.Linear;
import org.jtensor.nn.MaxPool2d;
import org.jtensor.nn.ReLU;
import org.jtensor.nn.Sequential;
import org.jtensor.optim.SGD;
import org.jtensor.optim.StepLR;

/** A small CNN learns where a bright square is (four quadrants), then is saved, restored and predicts the same. */
public final class SquaresCnn {
  private SquaresCnn() {}

  public static void main(String[] args) throws Exception {
    Generator.manualSeed(0);
    Generator g = new Generator(1);
    Tensor[] train = squares(512, g), test = squares(256, g);
    try (Sequential model = model();
         SGD opt = new SGD(model.parameters(), 0.05, 0.9)) {
      StepLR sched = new StepLR(opt, 100, 0.5);
      for (int step = 0; step < 300; step++) {
        try (TensorScope s = TensorScope.open()) {
          Tensor idx = Tensor.randint(0, 512, new long[] {32}, g);
          opt.zeroGrad();
          Tensor loss = Functional.crossEntropy(model.forward(train[0].indexSelect(0, idx)), train[1].indexSelect(0, idx));
          loss.backward();
          opt.step();
          sched.step();
          if (step % 100 == 0) System.out.printf("step %d loss %.4f lr %.4f%n", step, loss.item(), opt.lr());
        }
      }
      model.eval();
      try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
        Tensor predicted = model.forward(test[0]).argmax(1);
        System.out.printf("test accuracy %.3f%n", predicted.eq(test[1]).to(DType.FLOAT32).mean().item());
        Path file = Files.createTempDirectory("squares").resolve("cnn.pt");
        Map<String, Tensor> state = model.stateDict();
        Tensors.save(state, file);
        Tensors.closeAll(state);
        try (Sequential restored = model()) {
          Map<String, Tensor> loaded = Tensors.load(file);
          restored.loadStateDict(loaded);
          Tensors.closeAll(loaded);
          restored.eval();
          System.out.println("restored model predicts the same: " + restored.forward(test[0]).argmax(1).equal(predicted));
        }
      }
    } finally {
      Tensors.closeAll(java.util.List.of(train[0], train[1], test[0], test[1]));
    }
  }

  /** nn.Sequential(Conv2d(1, 8, 3, padding=1), BatchNorm2d(8), ReLU(), MaxPool2d(2), ..., Flatten(), Dropout(0.25), Linear(144, 4)). */
  public static Sequential model() {
    return new Sequential(
        new Conv2d(1, 8, 3, LayerOptions.of().padding(1)), new BatchNorm2d(8), new ReLU(), new MaxPool2d(2),
        new Conv2d(8, 16, 3, LayerOptions.of().padding(1)), new BatchNorm2d(16), new ReLU(), new MaxPool2d(2),
        new Flatten(), new Dropout(0.25), new Linear(16 * 3 * 3, 4));
  }

  /** n images [n, 1, 12, 12]: noise and a bright 3x3 square in one of four quadrants, the class [n]. */
  public static Tensor[] squares(int n, Generator g) {
    try (TensorScope s = TensorScope.open()) {
      Tensor y = Tensor.randint(0, 4, new long[] {n}, g);
      Tensor x = Tensor.randn(new long[] {n, 1, 12, 12}, DType.FLOAT32, g).mul(0.3);
      long[] cls = y.toLongArray();
      long[] offsets = Tensor.randint(0, 4, new long[] {n, 2}, g).toLongArray();
      for (int i = 0; i < n; i++) {
        long r = cls[i] / 2 * 6 + offsets[2 * i], c = cls[i] % 2 * 6 + offsets[2 * i + 1];
        x.get(Index.at(i), Index.at(0), Index.slice(r, r + 3), Index.slice(c, c + 3)).add_(2.0);
      }
      return new Tensor[] {s.keep(x), s.keep(y)};
    }
  }
}
