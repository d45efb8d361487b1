package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.core.DeviceMemory;
import org.jtensor.core.StorageImpl;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.plan.AttentionShape;
import org.jtensor.dispatch.plan.GridSamplePacker;
import org.jtensor.dispatch.plan.NormGroups;
import org.jtensor.dispatch.plan.Windows;

/** META: shapes, strides and dtypes without bytes. Writes do nothing; reads have nothing to read. */
final class MetaBackend implements Backend {
  @Override
  public Device device() {
    return Device.META;
  }

  @Override
  public DeviceMemory memory() {
    return DeviceMemory.META;
  }

  @Override public void copy(String op, TensorImpl dst, TensorImpl src) {}
  @Override public void fill(String op, TensorImpl dst, double value) {}
  @Override public void fill(String op, TensorImpl dst, long value) {}
  @Override public void arange(TensorImpl dst, long start, long step) {}
  @Override public void arange(TensorImpl dst, double start, double step) {}
  @Override public void linspace(TensorImpl dst, double start, double end) {}
  @Override public void store(String op, TensorImpl t, long elementOffset, double value) {}
  @Override public void store(String op, TensorImpl t, long elementOffset, long value) {}
  @Override public void elementwise(ElementwisePlan plan) {}
  @Override public void indexAlong(IndexAlong call) {}
  @Override public void random(RandomDraw draw) {}
  @Override public void indexAdvanced(IndexAdvanced call) {}

  @Override
  public long countNonzero(String op, TensorImpl t) {
    throw new UnsupportedOperationException(op + "(): meta tensors have no values to count");
  }

  @Override
  public long nonzero(String op, TensorImpl t, TensorImpl out) {
    throw new UnsupportedOperationException(op + "(): meta tensors have no values to count");
  }
  @Override public void reduce(Op op, String name, TensorImpl out, TensorImpl values, TensorImpl in, TensorImpl.Meta inMeta, long[] outStrides,
                               boolean[] reduced, double divisor) {}
  @Override public void gemm(String op, GemmCall call) {}
  @Override public void scan(Op op, int dim, TensorImpl out, TensorImpl indices, TensorImpl in) {}
  @Override public void softmax(String op, boolean log, int dim, TensorImpl out, TensorImpl in) {}
  @Override public void windows(String op, boolean fold, Windows w, TensorImpl image, TensorImpl columns) {}
  @Override public void gridSample(String op, GridSamplePacker.Sampling s, TensorImpl input, TensorImpl grid, TensorImpl out,
                                   TensorImpl gradOut, TensorImpl gradInput, TensorImpl gradGrid) {}
  @Override public void maxPool(String op, Windows w, TensorImpl image, TensorImpl out, TensorImpl indices) {}
  @Override public void maxPoolBackward(String op, Windows w, TensorImpl gradIn, TensorImpl gradOut, TensorImpl indices) {}
  @Override public void norm(String op, NormGroups g, boolean fixed, double eps, TensorImpl x, TensorImpl weight, TensorImpl bias,
                             TensorImpl mean, TensorImpl rstd, TensorImpl y) {}
  @Override public void normBackward(String op, NormGroups g, boolean fixed, TensorImpl grad, TensorImpl x, TensorImpl weight,
                                     TensorImpl mean, TensorImpl rstd, TensorImpl gradX, TensorImpl gradWeight, TensorImpl gradBias) {}

  @Override public void attention(String op, int mode, AttentionShape a, TensorImpl q, TensorImpl k, TensorImpl v, TensorImpl mask,
                                  TensorImpl out, TensorImpl lse, TensorImpl gradOut, TensorImpl gradQ, TensorImpl gradK, TensorImpl gradV) {}
  @Override public void sort(String op, int dim, boolean descending, TensorImpl values, TensorImpl indices, TensorImpl in) {}
  @Override public void select(String op, int kind, int dim, long k, TensorImpl indices, TensorImpl in) {}
  @Override public void search(String op, boolean right, boolean shared, long inner, long rows, long len, TensorImpl out, TensorImpl in,
                               TensorImpl bd, TensorImpl sorter) {}
  @Override public void copyBytes(String op, StorageImpl dst, StorageImpl src, long nbytes) {}

  /** META answers for every op the CPU has a kernel for: shapes and dtypes agree across devices. */
  @Override
  public boolean hasElementwise(Op op, DType dtype) {
    return Dispatcher.backend(Device.CPU).hasElementwise(op, dtype);
  }

  @Override
  public double loadDouble(String op, TensorImpl t, long elementOffset) {
    throw noData(op);
  }

  @Override
  public long loadLong(String op, TensorImpl t, long elementOffset) {
    throw noData(op);
  }

  @Override
  public void read(String op, TensorImpl contiguous, Object array) {
    throw noData(op);
  }

  @Override
  public void write(String op, TensorImpl contiguous, Object array) {}

  private static UnsupportedOperationException noData(String op) {
    return new UnsupportedOperationException(op + "(): a meta tensor has no data to read");
  }
}
