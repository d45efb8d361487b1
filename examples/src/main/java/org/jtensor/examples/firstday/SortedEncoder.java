package org.jtensor.examples.firstday;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Index;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.io.Tensors;
import org.jtensor.nn.Embedding;
import org.jtensor.nn.Functional;
import org.jtensor.nn.GradClipping;
import org.jtensor.nn.Linear;
import org.jtensor.nn.Module;
import org.jtensor.nn.TransformerEncoderLayer;
import org.jtensor.optim.AdamW;

/** A one-layer transformer encoder learns whether a padded sequence of token ids is sorted. */
public final class SortedEncoder extends Module {
  static final int VOCAB = 11, LENGTH = 8;  // ids 1..10, 0 pads
  private final Embedding tok, pos;
  private final TransformerEncoderLayer enc;
  private final Linear head;

  public SortedEncoder(long d, Generator g) {
    tok = registerModule("tok", new Embedding(VOCAB, d, 0L, g));
    pos = registerModule("pos", new Embedding(LENGTH, d, g));
    enc = registerModule("enc", new TransformerEncoderLayer(d, 4, 2 * d, 0.0, "relu", 1e-5, true, false, g));
    head = registerModule("head", new Linear(d, 2, true, g));
  }

  /** ids [batch, LENGTH] int64 to logits [batch, 2]: the encoder's output mean-pooled over the real tokens. */
  @Override
  public Tensor forward(Tensor ids) {
    try (TensorScope s = TensorScope.open()) {
      Tensor pad = ids.eq(0L);
      Tensor h = tok.forward(ids).add(pos.forward(Tensor.arange(ids.size(1))));
      h = enc.forward(h, null, pad, false);
      Tensor keep = pad.logicalNot().unsqueeze(-1).to(h.dtype());
      return s.keep(head.forward(h.mul(keep).sum(1).div(keep.sum(1))));
    }
  }

  public static void main(String[] args) {
    Generator.manualSeed(0);
    Generator g = new Generator(1);
    Tensor[] train = sequences(2048, g), test = sequences(512, g);
    try (SortedEncoder model = new SortedEncoder(32, g);
         AdamW opt = new AdamW(model.parameters(), 3e-3, 0.01)) {
      for (int step = 0; step < 300; step++) {
        try (TensorScope s = TensorScope.open()) {
          Tensor idx = Tensor.randint(0, 2048, new long[] {64}, g);
          opt.zeroGrad();
          Tensor loss = Functional.crossEntropy(model.forward(train[0].indexSelect(0, idx)), train[1].indexSelect(0, idx));
          loss.backward();
          double norm = GradClipping.clipGradNorm_(model.parameters(), 1.0).item();
          opt.step();
          if (step % 50 == 0) System.out.printf("step %d loss %.4f grad norm %.3f%n", step, loss.item(), norm);
        }
      }
      model.eval();
      try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
        Tensor correct = model.forward(test[0]).argmax(1).eq(test[1]);
        System.out.printf("test accuracy %.3f (always 'unsorted': %.3f)%n", correct.to(DType.FLOAT32).mean().item(),
            1 - test[1].to(DType.FLOAT32).mean().item());
      }
    } finally {
      Tensors.closeAll(List.of(train[0], train[1], test[0], test[1]));
    }
  }

  /** n sequences of ids 1..10, lengths 4..8 (0 pads the tail), half of them sorted; y: 1 where non-decreasing. */
  public static Tensor[] sequences(int n, Generator g) {
    try (TensorScope s = TensorScope.open()) {
      Tensor ids = Tensor.zeros(new long[] {n, LENGTH}, DType.INT64);
      long[] sorted = Tensor.randint(0, 2, new long[] {n}, g).toLongArray();
      long[] lengths = Tensor.randint(4, LENGTH + 1, new long[] {n}, g).toLongArray();
      for (int i = 0; i < n; i++) {
        Tensor row = Tensor.randint(1, VOCAB, new long[] {lengths[i]}, g);
        ids.set(sorted[i] == 1 ? row.sort().values() : row, Index.at(i), Index.slice(0L, lengths[i]));
      }
      Tensor next = ids.get(Index.all(), Index.slice(1, null)), prev = ids.get(Index.all(), Index.slice(null, -1));
      Tensor y = next.ge(prev).logicalOr(next.eq(0L)).all(1).to(DType.INT64);
      return new Tensor[] {s.keep(ids), s.keep(y)};
    }
  }
}
