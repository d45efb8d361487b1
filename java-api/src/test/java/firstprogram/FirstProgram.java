package firstprogram;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.data.Batch;
import org.jtensor.data.DataLoader;
import org.jtensor.data.TensorDataset;
import org.jtensor.io.Tensors;
import org.jtensor.nn.Functional;
import org.jtensor.nn.Linear;
import org.jtensor.nn.ReLU;
import org.jtensor.nn.Sequential;
import org.jtensor.optim.Adam;

/** A first program: data, a model, a training loop without scopes and with them, a checkpoint saved and loaded. */
public class FirstProgram {
  public static void main(String[] args) throws Exception {
    System.out.printf("restored model's test accuracy: %.3f%n", run(Path.of("first-program-out")));
  }

  public static double run(Path dir) throws Exception {
    Generator.manualSeed(0);                                   // torch.manual_seed(0): model init and shuffling
    Generator g = new Generator(1);
    TensorDataset train = blobs(1024, g), test = blobs(256, g);
    try (DataLoader<List<Tensor>> loader = DataLoader.builder(train).batchSize(32).shuffle(true).numWorkers(2).build();
         Sequential model = mlp();
         Adam opt = new Adam(model.parameters(), 1e-2)) {
      // 1. As a PyTorch loop is written: nothing closed. It runs; the leak detector frees what the
      //    garbage collector finds unreachable, and its log names the fix: a scope per step.
      for (int epoch = 0; epoch < 3; epoch++) {
        for (Batch b : loader) {                                // the loader closes each batch when it moves on
          opt.zeroGrad();
          Tensor loss = Functional.crossEntropy(model.forward(b.get(0)), b.get(1));
          loss.backward();
          opt.step();
        }
      }
      // 2. The same loop with a scope per step: every tensor made inside is closed at its end.
      for (int epoch = 3; epoch < 6; epoch++) {
        double sum = 0;
        for (Batch b : loader) {
          opt.zeroGrad();
          try (TensorScope step = TensorScope.open()) {
            Tensor loss = Functional.crossEntropy(model.forward(b.get(0)), b.get(1));
            loss.backward();
            sum += loss.item();
          }
          opt.step();
        }
        System.out.printf("epoch %d: mean loss %.4f, test accuracy %.3f%n", epoch, sum / loader.size(), accuracy(model, test));
      }
      // 3. torch.save(model.state_dict(), path), then load it into a new model.
      Files.createDirectories(dir);
      Path file = dir.resolve("model.pt");
      Map<String, Tensor> state = model.stateDict();
      Tensors.save(state, file);
      Tensors.closeAll(state);
      try (Sequential restored = mlp()) {
        Map<String, Tensor> loaded = Tensors.load(file);
        restored.loadStateDict(loaded);                         // copies the values in
        Tensors.closeAll(loaded);
        return accuracy(restored, test);
      }
    } finally {
      Tensors.closeAll(train.tensors());                         // a TensorDataset does not own its tensors
      Tensors.closeAll(test.tensors());
    }
  }

  /** nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 3)). */
  static Sequential mlp() {
    return new Sequential(new Linear(2, 32), new ReLU(), new Linear(32, 3));
  }

  /** n points around three centres: x [n, 2] float32, y [n] int64 (the class). */
  static TensorDataset blobs(long n, Generator g) {
    try (TensorScope s = TensorScope.open()) {                 // closes the intermediates; keep() what outlives it
      Tensor y = Tensor.randint(0, 3, new long[] {n}, g);
      Tensor centres = Tensor.fromArray(new float[][] {{0, 2}, {2, -1}, {-2, -1}});
      Tensor x = centres.indexSelect(0, y).add(Tensor.randn(new long[] {n, 2}, DType.FLOAT32, g).mul(0.6));
      return new TensorDataset(s.keep(x), s.keep(y));
    }
  }

  static double accuracy(Sequential model, TensorDataset test) {
    model.eval();
    long correct = 0;
    try (GradMode.Scope off = GradMode.noGrad();
         DataLoader<List<Tensor>> loader = DataLoader.builder(test).batchSize(128).build()) {
      for (Batch b : loader) {
        try (TensorScope s = TensorScope.open()) {
          correct += (long) model.forward(b.get(0)).argmax(1).eq(b.get(1)).sum().item();
        }
      }
    }
    model.train();
    return (double) correct / test.size();
  }
}
