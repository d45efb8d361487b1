package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Function;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.global.torch;
import org.jtensor.Close;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.optim.Adam;
import org.jtensor.optim.AdamW;
import org.jtensor.optim.Optimizer;
import org.jtensor.optim.SGD;
import org.junit.jupiter.api.Test;

/**
 * nn and optim against libtorch 2.10 in the same JVM: the same weights and batch give the same
 * loss, gradients and updated parameters (float32 on both sides, within 1e-5 relative).
 */
class NnLibtorchTest {
  private static final long MEAN = 1;  // at::Reduction::Mean

  private static void same(String what, double[] want, double[] got) {
    assertEquals(want.length, got.length, what + ": length");
    for (int i = 0; i < want.length; i++) {
      assertEquals(want[i], got[i], 1e-5 * Math.max(1, Math.abs(want[i])), what + "[" + i + "]");
    }
  }

  private static void same(String what, org.bytedeco.pytorch.Tensor want, Tensor got) {
    same(what, LibtorchPeer.values(want), got.toDoubleArray());
  }

  @Test
  void mlpWithCrossEntropyLabelSmoothingAndIgnoreIndex() {
    Generator g = new Generator(3);
    try (Linear l1 = new Linear(6, 5, g); Linear l2 = new Linear(5, 3, g); TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {4, 6}, g);
      long[] y = {2, 0, -100, 1};
      Tensor loss = Functional.crossEntropy(l2.forward(l1.forward(x).relu()), Tensor.fromArray(y), -100, 0.1, Reduction.MEAN);
      loss.backward();
      org.bytedeco.pytorch.Tensor w1 = LibtorchPeer.leaf(l1.weight()), b1 = LibtorchPeer.leaf(l1.bias());
      org.bytedeco.pytorch.Tensor w2 = LibtorchPeer.leaf(l2.weight()), b2 = LibtorchPeer.leaf(l2.bias());
      org.bytedeco.pytorch.Tensor h = torch.relu(torch.linear(LibtorchPeer.of(x), w1, new TensorOptional(b1)));
      org.bytedeco.pytorch.Tensor ref = torch.cross_entropy_loss(torch.linear(h, w2, new TensorOptional(b2)),
          LibtorchPeer.longs(y), new TensorOptional(), MEAN, -100, 0.1);
      ref.backward();
      same("loss", ref, loss);
      same("l1.weight.grad", w1.grad(), l1.weight().grad());
      same("l1.bias.grad", b1.grad(), l1.bias().grad());
      same("l2.weight.grad", w2.grad(), l2.weight().grad());
      same("l2.bias.grad", b2.grad(), l2.bias().grad());
    }
  }

  /**
   * At batch 4. This comparison once ran at batch 1 only: at batch 2 libtorch's input gradient
   * of max_pool2d after conv2d was zero in many places. That was oneDNN, not jtensor (LibtorchPeer
   * now turns it off; the next test reproduces it in libtorch alone).
   */
  @Test
  void conv2dMaxPoolBatchNormAndLayerNorm() {
    Generator g = new Generator(4);
    try (Conv2d conv = new Conv2d(2, 3, 3, 1, 1, g); BatchNorm bn = BatchNorm.batchNorm2d(3); LayerNorm ln = new LayerNorm(3, 3);
         TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {4, 2, 6, 6}, g).requiresGrad_();
      Tensor r = Tensor.randn(new long[] {4, 3, 3, 3}, g);
      Tensor loss = ln.forward(bn.forward(new MaxPool2d(2).forward(conv.forward(x)))).mul(r).sum();
      loss.backward();
      org.bytedeco.pytorch.Tensor tx = LibtorchPeer.leaf(x), w = LibtorchPeer.leaf(conv.weight()), b = LibtorchPeer.leaf(conv.bias());
      org.bytedeco.pytorch.Tensor rm = torch.zeros(3), rv = torch.ones(3);
      org.bytedeco.pytorch.Tensor y = torch.conv2d(tx, w, new TensorOptional(b), new long[] {1, 1}, new long[] {1, 1}, new long[] {1, 1}, 1);
      y = torch.max_pool2d(y, new long[] {2, 2}, new long[] {2, 2}, new long[] {0, 0}, new long[] {1, 1}, false);
      y = torch.batch_norm(y, new TensorOptional(torch.ones(3)), new TensorOptional(torch.zeros(3)), new TensorOptional(rm),
          new TensorOptional(rv), true, 0.1, 1e-5, false);
      try (org.bytedeco.javacpp.LongPointer shape = new org.bytedeco.javacpp.LongPointer(3L, 3L)) {
        y = torch.layer_norm(y, new org.bytedeco.pytorch.LongArrayRef(shape, 2), new TensorOptional(torch.ones(3, 3)),
            new TensorOptional(torch.zeros(3, 3)), 1e-5, false);
      }
      org.bytedeco.pytorch.Tensor ref = y.mul(LibtorchPeer.of(r)).sum();
      ref.backward();
      same("loss", ref, loss);
      same("x.grad", tx.grad(), x.grad());
      same("conv.weight.grad", w.grad(), conv.weight().grad());
      same("conv.bias.grad", b.grad(), conv.bias().grad());
      same("bn.running_mean", rm, bn.namedBuffers().get("running_mean"));
      same("bn.running_var", rv, bn.namedBuffers().get("running_var"));
    }
  }

  /**
   * Issue 22 point 5's reproducer, in libtorch alone: a batch's input gradient through conv2d and
   * max_pool2d must be each sample's own gradient (the samples do not interact). libtorch's own
   * kernels keep that at batch 4; with oneDNN on, on this project's AVX-512 hosts, every element
   * differed and some were 0 (printed, not asserted: which kernel oneDNN picks depends on the CPU).
   */
  @Test
  void libtorchsOwnKernelsGiveEachSampleItsOwnGradientInABatch() {
    try {
      for (boolean oneDnn : new boolean[] {false, true}) {
        torch.globalContext().setUserEnabledMkldnn(oneDnn);
        torch.manual_seed(4);
        org.bytedeco.pytorch.Tensor x = torch.randn(4, 2, 6, 6), w = torch.randn(3, 2, 3, 3), r = torch.randn(4, 3, 3, 3);
        double[] batched = poolOfConvInputGradient(x, w, r);
        int differ = 0;
        for (long n = 0; n < 4; n++) {
          double[] alone = poolOfConvInputGradient(x.narrow(0, n, 1), w, r.narrow(0, n, 1));
          for (int i = 0; i < alone.length; i++) differ += Close.within(batched[(int) n * alone.length + i], alone[i], 1e-5) ? 0 : 1;
        }
        if (!oneDnn) assertEquals(0, differ, "libtorch's own kernels: elements where the batch's gradient is not the sample's");
        else System.out.println("NnLibtorchTest: with oneDNN on, " + differ + " of 288 input-gradient elements differ from each sample's own");
      }
    } finally {
      torch.globalContext().setUserEnabledMkldnn(false);
    }
  }

  private static double[] poolOfConvInputGradient(org.bytedeco.pytorch.Tensor x, org.bytedeco.pytorch.Tensor w, org.bytedeco.pytorch.Tensor r) {
    org.bytedeco.pytorch.Tensor leaf = x.clone().requires_grad_(true);
    org.bytedeco.pytorch.Tensor y = torch.conv2d(leaf, w, new TensorOptional(), new long[] {1, 1}, new long[] {1, 1}, new long[] {1, 1}, 1);
    torch.max_pool2d(y, new long[] {2, 2}, new long[] {2, 2}, new long[] {0, 0}, new long[] {1, 1}, false).mul(r).sum().backward();
    return LibtorchPeer.values(leaf.grad());
  }

  @Test
  void groupNormMatchesLibtorch() {
    Generator g = new Generator(6);
    long[][] shapes = {{2, 6, 5}, {3, 4, 3, 2}, {1, 8, 2, 2, 3}};
    long[] groups = {3, 2, 4};
    for (int i = 0; i < shapes.length; i++) {
      try (TensorScope s = TensorScope.open()) {
        Tensor x = Tensor.randn(shapes[i], g).mul(3.0).add(1.0).requiresGrad_();
        long c = shapes[i][1];
        Tensor w = Tensor.randn(new long[] {c}, g).requiresGrad_(), b = Tensor.randn(new long[] {c}, g).requiresGrad_();
        Tensor up = Tensor.randn(shapes[i], g);
        Functional.groupNorm(x, groups[i], w, b, 1e-5).mul(up).sum().backward();
        org.bytedeco.pytorch.Tensor tx = LibtorchPeer.leaf(x), tw = LibtorchPeer.leaf(w), tb = LibtorchPeer.leaf(b);
        org.bytedeco.pytorch.Tensor ref = torch.group_norm(tx, groups[i], new TensorOptional(tw), new TensorOptional(tb), 1e-5, false);
        same("group_norm " + i, ref, Functional.groupNorm(x.detach(), groups[i], w.detach(), b.detach(), 1e-5));
        ref.mul(LibtorchPeer.of(up)).sum().backward();
        same("group_norm x.grad " + i, tx.grad(), x.grad());
        same("group_norm weight.grad " + i, tw.grad(), w.grad());
        same("group_norm bias.grad " + i, tb.grad(), b.grad());
      }
    }
    try (GroupNorm gn = new GroupNorm(2, 4); TensorScope s = TensorScope.open()) {  // stateDict's handles close with the scope
      assertEquals(List.of("weight", "bias"), List.copyOf(gn.stateDict().keySet()));
    }
  }

  @Test
  void regressionAndBinaryLosses() {
    Generator g = new Generator(5);
    try (TensorScope s = TensorScope.open()) {
      Tensor a = Tensor.randn(new long[] {3, 4}, g).requiresGrad_();
      Tensor t = Tensor.rand(new long[] {3, 4}, g);
      Tensor p = a.sigmoid();
      Tensor loss = Functional.mseLoss(a, t).add(Functional.binaryCrossEntropy(p, t, Reduction.MEAN))
          .add(Functional.binaryCrossEntropyWithLogits(a, t, Reduction.SUM));
      loss.backward();
      org.bytedeco.pytorch.Tensor ta = LibtorchPeer.leaf(a), tt = LibtorchPeer.of(t);
      org.bytedeco.pytorch.Tensor ref = torch.mse_loss(ta, tt).add(torch.binary_cross_entropy(torch.sigmoid(ta), tt))
          .add(torch.binary_cross_entropy_with_logits(ta, tt, new TensorOptional(), new TensorOptional(), 2));
      ref.backward();
      same("loss", ref, loss);
      same("a.grad", ta.grad(), a.grad());
    }
  }

  /** Two steps of each optimizer from the same parameters and gradients. */
  @Test
  void sgdAdamAndAdamWSteps() {
    check(ps -> new SGD(ps, 0.1, 0.9, 0, 0.01, true), tps -> {
      org.bytedeco.pytorch.SGDOptions o = new org.bytedeco.pytorch.SGDOptions(0.1);
      o.momentum().put(0.9);
      o.weight_decay().put(0.01);
      o.nesterov().put(true);
      return new org.bytedeco.pytorch.SGD(tps, o);
    });
    check(ps -> new Adam(ps, 0.01, 0.9, 0.999, 1e-8, 0.01), tps -> {
      org.bytedeco.pytorch.AdamOptions o = new org.bytedeco.pytorch.AdamOptions(0.01);
      o.weight_decay().put(0.01);
      return new org.bytedeco.pytorch.Adam(tps, o);
    });
    check(ps -> new AdamW(ps, 0.01, 0.9, 0.999, 1e-8, 0.05), tps -> {
      org.bytedeco.pytorch.AdamWOptions o = new org.bytedeco.pytorch.AdamWOptions(0.01);
      o.weight_decay().put(0.05);
      return new org.bytedeco.pytorch.AdamW(tps, o);
    });
  }

  private static void check(Function<List<Tensor>, Optimizer> ours,
                            Function<org.bytedeco.pytorch.TensorVector, org.bytedeco.pytorch.Optimizer> theirs) {
    Generator g = new Generator(6);
    try (Linear l = new Linear(4, 3, g); Optimizer opt = ours.apply(l.parameters()); TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.randn(new long[] {5, 4}, g);
      org.bytedeco.pytorch.Tensor w = LibtorchPeer.leaf(l.weight()), b = LibtorchPeer.leaf(l.bias()), tx = LibtorchPeer.of(x);
      org.bytedeco.pytorch.Optimizer ref = theirs.apply(new org.bytedeco.pytorch.TensorVector(w, b));
      for (int step = 0; step < 2; step++) {
        opt.zeroGrad();
        try (TensorScope st = TensorScope.open()) {
          l.forward(x).pow(2.0).mean().backward();
        }
        opt.step();
        ref.zero_grad();
        torch.linear(tx, w, new TensorOptional(b)).pow(new org.bytedeco.pytorch.Scalar(2.0)).mean().backward();
        ref.step();
      }
      same(opt.getClass().getSimpleName() + " weight", w, l.weight());
      same(opt.getClass().getSimpleName() + " bias", b, l.bias());
    }
  }
}
