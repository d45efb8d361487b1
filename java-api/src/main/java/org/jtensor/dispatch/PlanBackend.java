package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.core.DeviceMemory;
import org.jtensor.core.KernelStatus;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.plan.AttentionPacker;
import org.jtensor.dispatch.plan.AttentionShape;
import org.jtensor.dispatch.plan.ConvPacker;
import org.jtensor.dispatch.plan.ConvShape;
import org.jtensor.dispatch.plan.GridSamplePacker;
import org.jtensor.dispatch.plan.CopyPacker;
import org.jtensor.dispatch.plan.ElementwisePacker;
import org.jtensor.dispatch.plan.FillPacker;
import org.jtensor.dispatch.plan.GemmPacker;
import org.jtensor.dispatch.plan.IndexAdvancedPacker;
import org.jtensor.dispatch.plan.IndexAlongPacker;
import org.jtensor.dispatch.plan.NonzeroPacker;
import org.jtensor.dispatch.plan.NormGroups;
import org.jtensor.dispatch.plan.NormPacker;
import org.jtensor.dispatch.plan.RandomPacker;
import org.jtensor.dispatch.plan.ReducePacker;
import org.jtensor.dispatch.plan.ScanPacker;
import org.jtensor.dispatch.plan.SoftmaxPacker;
import org.jtensor.dispatch.plan.SearchPacker;
import org.jtensor.dispatch.plan.SelectPacker;
import org.jtensor.dispatch.plan.SortPacker;
import org.jtensor.dispatch.plan.Windows;
import org.jtensor.dispatch.plan.WindowsPacker;

/**
 * What the CPU and CUDA backends share: the same plans, packed and held the same way; each runs
 * them on its own kernels (run*) and raises its own kernels' statuses (check).
 */
abstract class PlanBackend implements Backend {
  private final Device device;
  private final DeviceMemory memory;

  PlanBackend(Device device) {
    NativeContract.checkLibrary();  // before this backend's first kernel: what Java and native code both state agrees
    this.device = device;
    this.memory = DeviceMemory.of(device);
  }

  @Override
  public final Device device() {
    return device;
  }

  @Override
  public final DeviceMemory memory() {
    return memory;
  }

  abstract int runCopy(long[] plan);

  abstract int runFill(long[] plan);

  abstract int runElementwise(long[] plan);

  abstract int runReduce(long[] plan);

  abstract int runGemm(long[] plan);

  abstract int runScan(long[] plan);

  abstract int runSort(long[] plan);

  abstract int runSelect(long[] plan);

  abstract int runSearch(long[] plan);

  abstract int runSoftmax(long[] plan);

  abstract int runWindows(long[] plan);

  abstract int runMaxPool(long[] plan);

  abstract int runNorm(long[] plan);

  /** The fused attention kernel; JT_NO_KERNEL (3) on a device without one. */
  int runAttention(long[] plan) {
    return 3;
  }

  /** The direct convolution kernel; JT_NO_KERNEL (3) on a device without one. */
  int runConv(long[] plan) {
    return 3;
  }

  /** The grid_sample kernel; JT_NO_KERNEL (3) on a device without one. */
  int runGridSample(long[] plan) {
    return 3;
  }

  /** The CPU's kernel takes every head size in float32 and float64. */
  @Override
  public boolean fusesAttention(DType dtype, long e, long ev) {
    return dtype == DType.FLOAT32 || dtype == DType.FLOAT64;
  }

  /** INDEX_OUT_OF_RANGE: bad[0] the first out-of-range index, nothing written. */
  abstract int runIndexAlong(long[] plan, long[] bad);

  /**
   * A bad index of an along-one-dim op, in PyTorch's words for that op: index_select and
   * index_add_ say "index out of range in self", the others name the index (negative ones
   * included: none of these ops wraps them, as PyTorch's do not).
   */
  private static IndexOutOfBoundsException alongIndexOutOfRange(IndexAlong c, long index) {
    String where = "index " + index + " is out of bounds for dimension " + c.dim + " with size " + c.selfSizes[c.dim];
    boolean selfWords = c.name.equals("indexSelect") || c.name.equals("indexAdd_");
    return new IndexOutOfBoundsException(c.name + "(): " + (selfWords ? "index out of range in self (" + where + ")" : where));
  }

  /** INDEX_OUT_OF_RANGE: bad[0] the first out-of-range index, bad[1] which index tensor held it. */
  abstract int runIndexAdvanced(long[] plan, long[] bad);

  /** found[0]: how many non-zero elements (written when the plan has an output). */
  abstract int runNonzero(long[] plan, long[] found);

  /** VALUE_OUT_OF_RANGE: bad[0] the first probability outside [0, 1], nothing written. */
  abstract int runRandom(long[] plan, double[] bad);

  abstract int runArange(long dst, int dtype, long n, int integral, long startBits, long stepBits);

  abstract int runLinspace(long dst, int dtype, long steps, double start, double end);

  /** Runs g on a library instead of runGemm's kernel when this backend has one for it; false otherwise. */
  boolean gemmElsewhere(String op, GemmCall g, long a, long b, long c) {
    return false;
  }

  /**
   * in's snapshot for a kernel whose output has in's shape (scan, softmax, sort): the op made out
   * from an earlier read of in, so a set_ on another thread in between shows as a shape that
   * differs, refused, rather than a kernel walking one geometry over the other's storage.
   */
  static TensorImpl.Meta sameShape(String op, TensorImpl out, TensorImpl in) {
    TensorImpl.Meta m = in.meta();
    if (!java.util.Arrays.equals(out.sizes(), m.sizes)) {
      throw new IllegalStateException(op + "(): the input was re-pointed by set_ on another thread while the op ran (size "
          + org.jtensor.core.Shapes.str(m.sizes) + ", the output's " + org.jtensor.core.Shapes.str(out.sizes()) + ")");
    }
    return m;
  }

  /** Raises a kernel's status (KernelStatus's code) unless it is OK. */
  abstract void check(int status, String op, DType dtype);

  @Override
  public void copy(String op, TensorImpl dst, TensorImpl src) {
    long[] sizes = dst.sizes(), dstStrides = dst.strides(), srcStrides = src.strides();
    TensorImpl.Meta dm = dst.meta(), sm = src.meta();  // each one's dtype read with the storage it sizes
    try (HeldOperands held = new HeldOperands(op)) {
      long d = held.output(dst, dm, sizes, dstStrides), s = held.address(src, sm, sizes, srcStrides);
      check(runCopy(CopyPacker.pack(d, dm.dtype, s, sm.dtype, sizes, dstStrides, srcStrides)), op, dm.dtype);
    }
  }

  @Override
  public void fill(String op, TensorImpl dst, double value) {
    fill(op, dst, false, Double.doubleToRawLongBits(value));
  }

  @Override
  public void fill(String op, TensorImpl dst, long value) {
    fill(op, dst, true, value);
  }

  private void fill(String op, TensorImpl dst, boolean integral, long bits) {
    long[] sizes = dst.sizes(), strides = dst.strides();
    TensorImpl.Meta m = dst.meta();
    try (HeldOperands held = new HeldOperands(op)) {
      long d = held.output(dst, m, sizes, strides);
      check(runFill(FillPacker.pack(d, m.dtype, integral, bits, sizes, strides)), op, m.dtype);
    }
  }

  @Override
  public void elementwise(ElementwisePlan p) {
    int nops = p.metas.length;
    TensorImpl out = p.metas[0].owner;
    DType outDtype = p.metas[0].dtype;
    long[] plan = ElementwisePacker.pack(CpuKernels.id(p.op), p.dtype, outDtype, p.shape, p.params, p.exactParams, p.strides,
        p.scalars);
    try (HeldOperands held = new HeldOperands(p.name)) {
      ElementwisePacker.setAddress(plan, 0, p.outputIsNew ? held.addressOfNew(out, p.shape, p.strides[0])
                                                          : held.output(out, p.metas[0], p.shape, p.strides[0]));
      for (int k = 1; k < nops; k++) {
        TensorImpl.Meta m = p.metas[k];
        if (m != null) ElementwisePacker.setAddress(plan, k, held.address(m.owner, m, p.shape, p.strides[k]));
      }
      check(runElementwise(plan), p.name, p.dtype);
    }
  }

  @Override
  public void reduce(Op op, String name, TensorImpl out, TensorImpl values, TensorImpl in, TensorImpl.Meta m, long[] outStrides,
                     boolean[] reduced, double divisor) {
    long[] sizes = m.sizes, inStrides = m.strides;  // the snapshot the op computed its shapes from, and its storage
    long[] outSizes = sizes.clone();  // out's geometry over in's dims: 1 where reduced
    for (int d = 0; d < sizes.length; d++) if (reduced[d]) outSizes[d] = 1;
    try (HeldOperands held = new HeldOperands(name)) {
      long o = held.output(out, outSizes, outStrides), i = held.address(in, m, sizes, inStrides);
      long v = values == null ? 0 : held.output(values, outSizes, outStrides);
      long[] plan = ReducePacker.pack(CpuKernels.id(op), m.dtype, out.dtype(), o, i, v, divisor, sizes, outStrides, inStrides, reduced);
      check(runReduce(plan), name, m.dtype);
    }
  }

  @Override
  public void gemm(String op, GemmCall g) {
    try (HeldOperands held = new HeldOperands(op)) {
      // one snapshot each, b and c checked against the dtypes the kernel is planned for (a's, c's as the call made it)
      TensorImpl.Meta am = held.readAs(g.a.meta(), g.dtype), bm = held.readAs(g.b.meta(), g.dtype), cm = held.readAs(g.c.meta(), g.outDtype);
      long a = held.address(g.a, am, matrixSizes(g, g.m, g.k), matrixStrides(g.aBatch, g.aRow, g.aCol));
      long b = held.address(g.b, bm, matrixSizes(g, g.k, g.n), matrixStrides(g.bBatch, g.bRow, g.bCol));
      long c = held.output(g.c, cm, matrixSizes(g, g.m, g.n), matrixStrides(g.cBatch, g.cRow, g.cCol));
      if (gemmElsewhere(op, g, a, b, c)) return;
      long[] plan = GemmPacker.pack(g.dtype, g.outDtype, g.m, g.n, g.k, a, b, c,
          new GemmPacker.Matrices(g.aRow, g.aCol, g.bRow, g.bCol, g.cRow, g.cCol), g.alpha, g.beta,
          g.batchSizes, g.aBatch, g.bBatch, g.cBatch);
      check(runGemm(plan), op, g.dtype);
    }
  }

  @Override
  public void arange(TensorImpl dst, long start, long step) {
    try (HeldOperands held = new HeldOperands("arange")) {
      check(runArange(held.flatOutput(dst), dst.dtype().code(), dst.numel(), 1, start, step), "arange", dst.dtype());
    }
  }

  @Override
  public void arange(TensorImpl dst, double start, double step) {
    try (HeldOperands held = new HeldOperands("arange")) {
      check(runArange(held.flatOutput(dst), dst.dtype().code(), dst.numel(), 0,
          Double.doubleToRawLongBits(start), Double.doubleToRawLongBits(step)), "arange", dst.dtype());
    }
  }

  @Override
  public void linspace(TensorImpl dst, double start, double end) {
    try (HeldOperands held = new HeldOperands("linspace")) {
      check(runLinspace(held.flatOutput(dst), dst.dtype().code(), dst.numel(), start, end), "linspace", dst.dtype());
    }
  }

  @Override
  public void indexAlong(IndexAlong c) {
    DType d = c.self.dtype(), id = c.index.dtype();  // the plan's dtypes, each operand's snapshot checked against them
    try (HeldOperands held = new HeldOperands(c.name)) {
      boolean gather = c.mode == IndexAlong.Mode.GATHER;  // which operand the kernel writes
      long self = gather ? held.address(c.self, d, c.selfSizes, c.selfStrides) : held.output(c.self, d, c.selfSizes, c.selfStrides);
      long index = held.address(c.index, id, c.shape, c.indexStrides);
      long other = c.otherIsNew ? held.addressOfNew(c.other, c.shape, c.otherStrides)
          : gather ? held.output(c.other, d, c.shape, c.otherStrides) : held.address(c.other, d, c.shape, c.otherStrides);
      long[] plan = IndexAlongPacker.pack(c.mode.code, d, id, c.dim, c.selfSizes[c.dim], c.shape,
          new IndexAlongPacker.Operands(self, c.selfStrides, index, c.indexStrides, other, c.otherStrides));
      long[] bad = new long[1];
      int status = runIndexAlong(plan, bad);
      if (KernelStatus.of(status) == KernelStatus.INDEX_OUT_OF_RANGE) throw alongIndexOutOfRange(c, bad[0]);
      check(status, c.name, d);
    }
  }

  @Override
  public void random(RandomDraw r) {
    try (HeldOperands held = new HeldOperands(r.name)) {
      TensorImpl.Meta m = r.dst.meta();  // the dtype written and the storage it sizes, one snapshot
      long[] sizes = r.dst.sizes();
      long dst = held.output(r.dst, m, sizes, r.dst.strides());
      long p = r.p == null ? 0 : held.address(r.p, DType.FLOAT64, sizes, r.pStrides);  // bernoulli's probabilities: float64
      long[] pStrides = r.p == null ? new long[sizes.length] : r.pStrides;
      long[] plan = RandomPacker.pack(r.kind.code, m.dtype, dst, r.key, r.counter, r.a, r.b, p, sizes, r.dst.strides(), pStrides);
      double[] bad = new double[1];
      int status = runRandom(plan, bad);
      if (KernelStatus.of(status) == KernelStatus.VALUE_OUT_OF_RANGE) {
        throw new IllegalArgumentException(r.name + "(): Expected p_in >= 0 && p_in <= 1 to be true, but got " + bad[0]);
      }
      check(status, r.name, m.dtype);
    }
  }

  @Override
  public void indexAdvanced(IndexAdvanced c) {
    DType d = c.self.dtype();  // the plan's: each operand's snapshot checked against it
    try (HeldOperands held = new HeldOperands(c.name)) {
      long self = c.put ? held.output(c.self, d, c.self.sizes(), c.self.strides()) : held.address(c.self, d, c.self.sizes(), c.self.strides());
      long other = c.otherIsNew ? held.addressOfNew(c.other, c.shape, c.otherStrides)
          : c.put ? held.address(c.other, d, c.shape, c.otherStrides) : held.output(c.other, d, c.shape, c.otherStrides);
      IndexAdvancedPacker.Index[] indices = new IndexAdvancedPacker.Index[c.indices.size()];
      for (int j = 0; j < indices.length; j++) {
        IndexAdvanced.Index x = c.indices.get(j);
        TensorImpl.Meta xm = x.tensor().meta();
        long data = held.address(x.tensor(), xm, c.shape, x.strides());
        indices[j] = new IndexAdvancedPacker.Index(data, xm.dtype, c.self.sizes()[x.dim()], c.self.strides()[x.dim()],
            x.strides());
      }
      long[] plan = IndexAdvancedPacker.pack(c.put, d, c.shape, self, c.selfStrides, other, c.otherStrides, indices);
      long[] bad = new long[2];
      int status = runIndexAdvanced(plan, bad);
      if (KernelStatus.of(status) == KernelStatus.INDEX_OUT_OF_RANGE) {
        int dim = c.indices.get((int) bad[1]).dim();
        throw new IndexOutOfBoundsException(c.name + "(): index " + bad[0] + " is out of bounds for dimension " + dim
            + " with size " + c.self.sizes()[dim]);
      }
      check(status, c.name, d);
    }
  }

  @Override
  public long countNonzero(String op, TensorImpl t) {
    return nonzero(op, t, null, 0);
  }

  @Override
  public long nonzero(String op, TensorImpl t, TensorImpl out) {
    return nonzero(op, t, out, out.sizes()[0]);
  }

  private long nonzero(String op, TensorImpl t, TensorImpl out, long rows) {
    try (HeldOperands held = new HeldOperands(op)) {
      TensorImpl.Meta m = t.meta();  // dtype, geometry and storage from one snapshot
      long src = held.address(t, m, m.sizes, m.strides);
      long dst = out == null ? 0 : held.addressOfNew(out, out.sizes(), out.strides());
      long[] found = new long[1];
      check(runNonzero(NonzeroPacker.pack(m.dtype, src, m.sizes, m.strides, dst, rows), found), op, m.dtype);
      return found[0];
    }
  }

  @Override
  public void scan(Op op, int dim, TensorImpl out, TensorImpl indices, TensorImpl in) {
    TensorImpl.Meta m = sameShape(op.name, out, in);
    if (indices != null) sameShape(op.name, indices, in);
    long[] sizes = m.sizes, outStrides = out.strides(), inStrides = m.strides;
    long[] indicesStrides = indices == null ? new long[sizes.length] : indices.strides();
    try (HeldOperands held = new HeldOperands(op.name)) {
      TensorImpl.Meta om = out.meta();
      long o = held.output(out, om, sizes, outStrides), i = held.address(in, m, sizes, inStrides);
      long x = indices == null ? 0 : held.output(indices, DType.INT64, sizes, indicesStrides);
      long[] plan = ScanPacker.pack(CpuKernels.id(op), m.dtype, om.dtype, dim, o, i, x, sizes, outStrides, inStrides, indicesStrides);
      check(runScan(plan), op.name, m.dtype);
    }
  }

  @Override
  public void softmax(String op, boolean log, int dim, TensorImpl out, TensorImpl in) {
    TensorImpl.Meta m = sameShape(op, out, in);
    boolean scalar = m.sizes.length == 0;  // the kernel walks lines: a 0-dim tensor is one line of one element
    long[] sizes = scalar ? new long[] {1} : m.sizes, outStrides = scalar ? sizes : out.strides(),
        inStrides = scalar ? sizes : m.strides;
    try (HeldOperands held = new HeldOperands(op)) {
      long o = held.output(out, m.dtype, sizes, outStrides), i = held.address(in, m, sizes, inStrides);
      check(runSoftmax(SoftmaxPacker.pack(log, m.dtype, dim, o, i, sizes, outStrides, inStrides)), op, m.dtype);
    }
  }

  @Override
  public void windows(String op, boolean fold, Windows w, TensorImpl image, TensorImpl columns) {
    long[] imageShape = w.imageShape(), columnsShape = w.columnsShape();
    long[] imageStrides = image.strides(), columnsStrides = columns.strides();
    DType d = image.dtype();  // the plan's: both snapshots checked against it
    try (HeldOperands held = new HeldOperands(op)) {
      long i = fold ? held.output(image, d, imageShape, imageStrides) : held.address(image, d, imageShape, imageStrides);
      long c = fold ? held.address(columns, d, columnsShape, columnsStrides) : held.output(columns, d, columnsShape, columnsStrides);
      check(runWindows(WindowsPacker.pack(fold, d, w, i, imageStrides, c, columnsStrides)), op, d);
    }
  }

  @Override
  public void maxPool(String op, Windows w, TensorImpl image, TensorImpl out, TensorImpl indices) {
    long[] imageShape = w.imageShape(), pooled = w.pooledShape(), imageStrides = image.strides(), pooledStrides = contiguous(pooled);
    DType d = image.dtype();
    try (HeldOperands held = new HeldOperands(op)) {
      long i = held.address(image, d, imageShape, imageStrides), o = held.output(out, d, pooled, pooledStrides),
          x = held.output(indices, DType.INT64, pooled, pooledStrides);
      check(runMaxPool(WindowsPacker.packMaxPool(false, d, w, i, imageStrides, o, x)), op, d);
    }
  }

  @Override
  public void maxPoolBackward(String op, Windows w, TensorImpl gradIn, TensorImpl gradOut, TensorImpl indices) {
    long[] imageShape = w.imageShape(), pooled = w.pooledShape(), imageStrides = gradIn.strides(), pooledStrides = contiguous(pooled);
    DType d = gradIn.dtype();
    try (HeldOperands held = new HeldOperands(op)) {
      long i = held.output(gradIn, d, imageShape, imageStrides), o = held.address(gradOut, d, pooled, pooledStrides),
          x = held.address(indices, DType.INT64, pooled, pooledStrides);
      int status = runMaxPool(WindowsPacker.packMaxPool(true, d, w, i, imageStrides, o, x));
      if (KernelStatus.of(status) == KernelStatus.INDEX_OUT_OF_RANGE) throw new IndexOutOfBoundsException(op + "(): an index outside its input plane");
      check(status, op, d);
    }
  }

  @Override
  public void norm(String op, NormGroups g, boolean fixed, double eps, TensorImpl x, TensorImpl weight, TensorImpl bias,
                   TensorImpl mean, TensorImpl rstd, TensorImpl y) {
    long[] plan = NormPacker.pack(false, g, fixed, x.dtype(), eps);
    try (HeldOperands held = new HeldOperands(op)) {
      plan[NormPacker.X] = run(held, x, g.numel(), false);
      plan[NormPacker.WEIGHT] = run(held, weight, g.c(), false);
      plan[NormPacker.BIAS] = run(held, bias, g.c(), false);
      plan[NormPacker.MEAN] = run(held, mean, g.units(), !fixed);
      plan[NormPacker.RSTD] = run(held, rstd, g.units(), !fixed);
      plan[NormPacker.Y] = run(held, y, g.numel(), true);
      check(runNorm(plan), op, x.dtype());
    }
  }

  @Override
  public void normBackward(String op, NormGroups g, boolean fixed, TensorImpl grad, TensorImpl x, TensorImpl weight, TensorImpl mean,
                           TensorImpl rstd, TensorImpl gradX, TensorImpl gradWeight, TensorImpl gradBias) {
    long[] plan = NormPacker.pack(true, g, fixed, x.dtype(), 0);
    try (HeldOperands held = new HeldOperands(op)) {
      plan[NormPacker.GRAD] = run(held, grad, g.numel(), false);
      plan[NormPacker.X] = run(held, x, g.numel(), false);
      plan[NormPacker.WEIGHT] = run(held, weight, g.c(), false);
      plan[NormPacker.MEAN] = run(held, mean, g.units(), false);
      plan[NormPacker.RSTD] = run(held, rstd, g.units(), false);
      plan[NormPacker.GRAD_X] = run(held, gradX, g.numel(), true);
      plan[NormPacker.GRAD_WEIGHT] = run(held, gradWeight, g.c(), true);
      plan[NormPacker.GRAD_BIAS] = run(held, gradBias, g.c(), true);
      check(runNorm(plan), op, x.dtype());
    }
  }

  @Override
  public void attention(String op, int mode, AttentionShape a, TensorImpl q, TensorImpl k, TensorImpl v, TensorImpl mask, TensorImpl out,
                        TensorImpl lse, TensorImpl gradOut, TensorImpl gradQ, TensorImpl gradK, TensorImpl gradV) {
    DType dtype = out != null ? out.dtype() : gradQ != null ? gradQ.dtype() : gradK != null ? gradK.dtype() : gradV.dtype();
    boolean backward = mode == AttentionPacker.BACKWARD;
    try (HeldOperands held = new HeldOperands(op)) {
      long[] maskStrides = new long[4];
      long maskAddress = 0;
      int maskKind = AttentionPacker.NO_MASK;
      if (mask != null) {
        TensorImpl.Meta m = mask.meta();
        maskStrides = m.strides.clone();
        maskAddress = held.address(mask, m, a.scoresShape(), maskStrides);
        maskKind = mask.dtype() == DType.BOOL ? AttentionPacker.BOOL_MASK : AttentionPacker.ADDITIVE_MASK;
        requireDtype(op, "attn_mask", mask, maskKind == AttentionPacker.BOOL_MASK ? DType.BOOL : dtype.opMath());
      }
      if (lse != null) requireDtype(op, "the row log-sum-exp", lse, dtype.opMath());
      if (mode != AttentionPacker.DROPOUT_FACTORS) {
        for (TensorImpl t : new TensorImpl[] {q, k, v, out, gradOut, gradQ, gradK, gradV}) {
          if (t != null) requireDtype(op, "an operand", t, dtype);
        }
      }
      long[] plan = AttentionPacker.pack(mode, dtype, a, maskKind, maskStrides);
      plan[AttentionPacker.MASK] = maskAddress;
      if (mode == AttentionPacker.DROPOUT_FACTORS) {
        plan[AttentionPacker.OUT] = held.output(out, a.scoresShape(), contiguous(a.scoresShape()));
      } else {
        plan[AttentionPacker.Q] = held.address(q, a.queryShape(), contiguous(a.queryShape()));
        plan[AttentionPacker.K] = held.address(k, a.keyShape(), contiguous(a.keyShape()));
        plan[AttentionPacker.V] = held.address(v, a.valueShape(), contiguous(a.valueShape()));
        long[] o = a.outputShape(), l = a.lseShape();
        plan[AttentionPacker.OUT] = backward ? held.address(out, o, contiguous(o)) : held.output(out, o, contiguous(o));
        plan[AttentionPacker.LSE] = backward ? held.address(lse, l, contiguous(l)) : held.output(lse, l, contiguous(l));
        if (backward) {
          plan[AttentionPacker.GRAD_OUT] = held.address(gradOut, o, contiguous(o));
          if (gradQ != null) plan[AttentionPacker.GRAD_Q] = held.output(gradQ, a.queryShape(), contiguous(a.queryShape()));
          if (gradK != null) plan[AttentionPacker.GRAD_K] = held.output(gradK, a.keyShape(), contiguous(a.keyShape()));
          if (gradV != null) plan[AttentionPacker.GRAD_V] = held.output(gradV, a.valueShape(), contiguous(a.valueShape()));
        }
      }
      check(runAttention(plan), op, dtype);
    }
  }

  /** The kernels read each attention operand in one dtype: a tensor of another would be read past its bytes. */
  private static void requireDtype(String op, String what, TensorImpl t, DType want) {
    if (t.dtype() != want) {
      throw new IllegalArgumentException(op + "(): the fused kernel reads " + what + " as " + want + ", got " + t.dtype());
    }
  }

  @Override
  public boolean convolution(String op, int mode, ConvShape s, TensorImpl x, TensorImpl weight, TensorImpl bias, TensorImpl y) {
    DType dtype = (mode == ConvPacker.INPUT_GRAD ? x : mode == ConvPacker.WEIGHT_GRAD ? weight : y).dtype();
    long[] plan = ConvPacker.pack(mode, dtype, s), in = s.inputShape(), w = s.weightShape(), out = s.outputShape();
    try (HeldOperands held = new HeldOperands(op)) {
      plan[ConvPacker.X] = mode == ConvPacker.INPUT_GRAD ? held.output(x, in, contiguous(in)) : held.address(x, in, contiguous(in));
      plan[ConvPacker.WEIGHT] = mode == ConvPacker.WEIGHT_GRAD ? held.output(weight, w, contiguous(w)) : held.address(weight, w, contiguous(w));
      plan[ConvPacker.BIAS] = run(held, bias, s.outChannels(), false);
      plan[ConvPacker.Y] = mode == ConvPacker.FORWARD ? held.output(y, out, contiguous(out)) : held.address(y, out, contiguous(out));
      int status = runConv(plan);
      if (KernelStatus.of(status) == KernelStatus.VALUE_OUT_OF_RANGE && mode != ConvPacker.FORWARD) return false;  // a non-finite operand (Backend's note)
      check(status, op, dtype);
      return true;
    }
  }

  @Override
  public void gridSample(String op, GridSamplePacker.Sampling s, TensorImpl input, TensorImpl grid, TensorImpl out, TensorImpl gradOut,
                         TensorImpl gradInput, TensorImpl gradGrid) {
    boolean backward = gradOut != null;
    long[] plan = GridSamplePacker.pack(backward, input.dtype(), s), in = s.inputShape(), g = s.gridShape(), o = s.outputShape();
    try (HeldOperands held = new HeldOperands(op)) {
      for (TensorImpl t : new TensorImpl[] {grid, out, gradOut, gradInput, gradGrid}) {
        if (t != null && t.dtype() != input.dtype()) {
          throw new IllegalArgumentException(op + "(): the kernel reads every operand as " + input.dtype() + ", got " + t.dtype());
        }
      }
      plan[GridSamplePacker.INPUT] = held.address(input, in, contiguous(in));
      plan[GridSamplePacker.GRID] = held.address(grid, g, contiguous(g));
      if (backward) {
        plan[GridSamplePacker.GRAD_OUT] = held.address(gradOut, o, contiguous(o));
        if (gradInput != null) plan[GridSamplePacker.GRAD_INPUT] = held.output(gradInput, in, contiguous(in));
        if (gradGrid != null) plan[GridSamplePacker.GRAD_GRID] = held.output(gradGrid, g, contiguous(g));
      } else {
        plan[GridSamplePacker.OUT] = held.output(out, o, contiguous(o));
      }
      check(runGridSample(plan), op, input.dtype());
    }
  }

  /** The address of count contiguous elements of t (0 for an absent t), held and checked to lie inside its storage. */
  private static long run(HeldOperands held, TensorImpl t, long count, boolean written) {
    if (t == null) return 0;
    long[] sizes = {count}, unit = {1};
    return written ? held.output(t, sizes, unit) : held.address(t, sizes, unit);
  }

  /** Row-major strides of a shape (the windows kernels' columns and pooled outputs are contiguous). */
  private static long[] contiguous(long[] shape) {
    long[] s = new long[shape.length];
    long step = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      s[d] = step;
      step *= Math.max(shape[d], 1);
    }
    return s;
  }

  @Override
  public void sort(String op, int dim, boolean descending, TensorImpl values, TensorImpl indices, TensorImpl in) {
    TensorImpl.Meta m = sameShape(op, values, in);
    long[] sizes = m.sizes;
    try (HeldOperands held = new HeldOperands(op)) {
      long v = held.output(values, m.dtype, sizes, values.strides()), x = held.output(indices, DType.INT64, sizes, indices.strides());
      long i = held.address(in, m, sizes, m.strides);
      check(runSort(SortPacker.pack(m.dtype, dim, descending, v, x, i, sizes, values.strides(), indices.strides(),
          m.strides)), op, m.dtype);
    }
  }

  @Override
  public void select(String op, int kind, int dim, long k, TensorImpl indices, TensorImpl in) {
    TensorImpl.Meta m = in.meta();
    long[] out = m.sizes.clone();
    out[dim] = 1;
    if (!java.util.Arrays.equals(out, indices.sizes())) {  // as sameShape: a set_ on another thread since the op read in
      throw new IllegalStateException(op + "(): the input was re-pointed by set_ on another thread while the op ran");
    }
    try (HeldOperands held = new HeldOperands(op)) {
      long x = held.output(indices, DType.INT64, out, indices.strides()), i = held.address(in, m, m.sizes, m.strides);
      check(runSelect(SelectPacker.pack(kind, m.dtype, dim, k, x, i, m.sizes, indices.strides(), m.strides)), op, m.dtype);
    }
  }

  @Override
  public void search(String op, boolean right, boolean shared, long inner, long rows, long len, TensorImpl out, TensorImpl in,
                     TensorImpl bd, TensorImpl sorter) {
    TensorImpl.Meta mo = out.meta(), mi = in.meta(), mb = bd.meta(), ms = sorter == null ? null : sorter.meta();
    long n = mi.numel;
    // the counts the kernel walks, from the snapshots whose storages it reads
    if (mo.numel != n || mb.numel != rows * len || (ms != null && ms.numel != mb.numel) || (shared ? rows != 1 : n != rows * inner)) {
      throw new IllegalStateException(op + "(): an operand changed size while the op ran");
    }
    try (HeldOperands held = new HeldOperands(op)) {
      long o = held.output(out, mo, new long[] {n}, FLAT), i = held.address(in, mi, new long[] {n}, FLAT);
      long b = held.address(bd, held.readAs(mb, mi.dtype), new long[] {mb.numel}, FLAT);  // the boundaries read as the values' dtype
      long s = ms == null ? 0 : held.address(sorter, held.readAs(ms, DType.INT64), new long[] {ms.numel}, FLAT);
      check(runSearch(SearchPacker.pack(mi.dtype, mo.dtype, right, n, inner, rows, len, shared, o, i, b, s)), op, mi.dtype);
    }
  }

  private static final long[] FLAT = {1};

  /** The Java array must be a primitive array holding exactly nbytes: JNI copies that many. */
  static void checkArray(String op, Object array, long nbytes) {
    int elem = array instanceof double[] || array instanceof long[] ? 8
        : array instanceof float[] || array instanceof int[] ? 4
        : array instanceof short[] ? 2 : array instanceof byte[] ? 1 : 0;
    if (elem == 0) throw new IllegalArgumentException(op + "(): unsupported array type " + array.getClass().getName());
    long have = (long) java.lang.reflect.Array.getLength(array) * elem;
    if (have != nbytes) {
      throw new IllegalArgumentException(op + "(): the array holds " + have + " bytes, the tensor " + nbytes);
    }
  }

  /** The batch sizes followed by one matrix's rows and columns: the geometry the GEMM walks. */
  private static long[] matrixSizes(GemmCall g, long rows, long cols) {
    long[] s = java.util.Arrays.copyOf(g.batchSizes, g.batchSizes.length + 2);
    s[s.length - 2] = rows;
    s[s.length - 1] = cols;
    return s;
  }

  private static long[] matrixStrides(long[] batch, long row, long col) {
    long[] s = java.util.Arrays.copyOf(batch, batch.length + 2);
    s[s.length - 2] = row;
    s[s.length - 1] = col;
    return s;
  }
}
