package org.jtensor.examples.firstday;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Index;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;

/** Everyday tensor code as a PyTorch user writes it; tour.py beside FirstDayTest prints PyTorch's same lines. */
public final class TensorTour {
  private TensorTour() {}

  public static void main(String[] args) {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.arange(12).reshape(3, 4).to(DType.FLOAT32);             // torch.arange(12.).reshape(3, 4)
      System.out.println("x = " + x);
      // masks and index tensors: copies
      Tensor mask = x.gt(5.0);
      System.out.println("x[x > 5] = " + x.get(Index.of(mask)));
      System.out.println("x[[2, 0]] = " + x.get(Index.of(Tensor.fromArray(new long[] {2, 0}))));
      System.out.println("x[[0, 2], [1, 3]] = " + x.get(Index.of(Tensor.fromArray(new long[] {0, 2})),
          Index.of(Tensor.fromArray(new long[] {1, 3}))));
      x.set(-1.0, Index.of(x.lt(2.0)));                                         // x[x < 2] = -1
      System.out.println("after x[x < 2] = -1: " + x);
      // views share storage; clone() and advanced indexing copy
      Tensor col = x.get(Index.all(), Index.at(1));                               // x[:, 1]
      col.mul_(10);
      System.out.println("after x[:, 1] *= 10: " + x);
      Tensor copy = x.get(Index.of(Tensor.fromArray(new long[] {0})));
      copy.fill_(0.0);
      System.out.println("x[[0]].fill_(0) leaves x: " + x.get(Index.at(0)));
      Tensor xt = x.t();
      System.out.println("x.t() is contiguous: " + xt.isContiguous() + ", x.t().contiguous().stride() = "
          + Arrays.toString(xt.contiguous().stride()));
      // broadcasting and in place
      Tensor rowMeans = x.mean(1, true);                                          // [3, 1]
      System.out.println("x - x.mean(1, keepdim=True) = " + x.sub(rowMeans));
      Tensor w = Tensor.ones(4).mul(0.5);
      x.add_(w).clamp_(0.0, 50.0);
      System.out.println("x.add_(w).clamp_(0, 50) = " + x);
      // autograd and no_grad
      Tensor p = Tensor.fromArray(new float[] {1, 2, 3}).requiresGrad_();
      Tensor loss = p.pow(2).sum();
      loss.backward();
      System.out.println("grad of (p**2).sum() = " + p.grad());
      try (GradMode.Scope off = GradMode.noGrad()) {
        p.sub_(p.grad().mul(0.1));                                               // with torch.no_grad(): p -= 0.1 * p.grad
        System.out.println("under no_grad: p = " + p + ", (p * 2).requires_grad = " + p.mul(2).requiresGrad());
      }
      // dtypes and Java arrays
      Tensor f = Tensor.fromArray(new double[] {-1.7, 0.5, 2.5, 3.9});
      System.out.println("float64 " + f + " to int64: " + f.to(DType.INT64) + ", to bool: " + f.to(DType.BOOL));
      System.out.println("int + float: " + Tensor.fromArray(new long[] {1, 2}).add(0.5).dtype()
          + ", int / int: " + Tensor.fromArray(new long[] {3, 4}).div(Tensor.fromArray(new long[] {2, 2})));
      float[][] back = x.toFloatArray2d();
      System.out.println("x.tolist()[2] = " + Arrays.toString(back[2]) + ", x.sum().item() = " + x.sum().item());
      System.out.println("torch.where(x > 20, x, 0) = " + Tensor.where(x.gt(20.0), x, 0.0));
    }
  }
}
