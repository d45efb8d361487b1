package org.jtensor;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.core.Shapes;
import org.jtensor.ops.IndexAlongOps;
import org.jtensor.ops.ViewOps;

/**
 * Tensor's static ops over several tensors, PyTorch's torch.cat, torch.stack, torch.broadcast_tensors, the stacks,
 * meshgrid, cartesian_prod and block_diag: each composed from views, cat, stack and copy_ into
 * blocks, so autograd needs nothing of its own. A superclass of
 * {@link ArrayFactories} for the reason that one is a class: static methods are inherited and
 * called as Tensor's. It has no instances of its own.
 */
public abstract sealed class TensorJoins extends TensorIndexFactories permits ArrayFactories {
  TensorJoins() {}

  /** torch.broadcast_tensors: each tensor expanded (a view) to the shape they broadcast to together. */
  public static List<Tensor> broadcastTensors(Tensor... tensors) {
    String op = "broadcastTensors";
    long[] shape = new long[0];
    for (Tensor t : tensors) shape = Shapes.broadcastShapes(op, shape, Tensor.implOf(t, op).sizes());
    List<Tensor> out = new ArrayList<>(tensors.length);
    try {
      for (Tensor t : tensors) out.add(Tensor.wrap(ViewOps.expand(op, t.impl(op), shape)));
      return out;
    } catch (RuntimeException e) {
      for (Tensor t : out) t.close();
      throw e;
    }
  }

  /** torch.hstack: cat along dim 1 (dim 0 when the first is 1-D) after atleast1d. */
  public static Tensor hstack(Tensor... tensors) {
    return joined("hstack", tensors, 1, a -> a[0].dim() == 1 ? 0 : 1);
  }

  public static Tensor hstack(List<Tensor> tensors) {
    return hstack(array("hstack", tensors));
  }

  /** torch.vstack: cat along dim 0 after atleast2d. */
  public static Tensor vstack(Tensor... tensors) {
    return joined("vstack", tensors, 2, a -> 0);
  }

  public static Tensor vstack(List<Tensor> tensors) {
    return vstack(array("vstack", tensors));
  }

  /** torch.dstack: cat along dim 2 after atleast3d. */
  public static Tensor dstack(Tensor... tensors) {
    return joined("dstack", tensors, 3, a -> 2);
  }

  public static Tensor dstack(List<Tensor> tensors) {
    return dstack(array("dstack", tensors));
  }

  /** torch.column_stack: 0-D and 1-D tensors as columns ([n, 1]), then hstack. */
  public static Tensor columnStack(Tensor... tensors) {
    return joined("columnStack", tensors, 0, a -> 1);
  }

  public static Tensor columnStack(List<Tensor> tensors) {
    return columnStack(array("columnStack", tensors));
  }

  /** torch.atleast_1d: a 0-D tensor as [1] (a view); others as they are (a new handle). */
  public static Tensor atleast1d(Tensor t) {
    return atLeast("atleast1d", t, 1);
  }

  /** torch.atleast_2d: 0-D as [1, 1], 1-D [n] as [1, n] (views). */
  public static Tensor atleast2d(Tensor t) {
    return atLeast("atleast2d", t, 2);
  }

  /** torch.atleast_3d: 0-D as [1, 1, 1], [n] as [1, n, 1], [m, n] as [m, n, 1] (views). */
  public static Tensor atleast3d(Tensor t) {
    return atLeast("atleast3d", t, 3);
  }

  public static List<Tensor> atleast1d(Tensor... tensors) {
    return atLeastAll("atleast1d", tensors, 1);
  }

  public static List<Tensor> atleast2d(Tensor... tensors) {
    return atLeastAll("atleast2d", tensors, 2);
  }

  public static List<Tensor> atleast3d(Tensor... tensors) {
    return atLeastAll("atleast3d", tensors, 3);
  }

  /**
   * torch.meshgrid: for N tensors (0-D or 1-D, one dtype and device) of sizes s0..sN-1, N views
   * of shape [s0, ..., sN-1], the i-th varying along dim i ("ij"); "xy" swaps the first two
   * inputs' roles and the first two dims, as NumPy's.
   */
  public static List<Tensor> meshgrid(String indexing, Tensor... tensors) {
    return meshgrid("meshgrid", indexing, tensors);
  }

  private static List<Tensor> meshgrid(String op, String indexing, Tensor... tensors) {
    if (tensors == null || tensors.length == 0) throw new IllegalArgumentException(op + "(): meshgrid expects a non-empty TensorList");
    for (Tensor t : tensors) Tensor.implOf(t, op);
    for (int i = 0; i + 1 < tensors.length; i++) {
      if (tensors[i].dtype() != tensors[i + 1].dtype()) {
        throw new IllegalArgumentException(op + "(): meshgrid expects all tensors to have the same dtype");
      }
      if (!tensors[i].device().equals(tensors[i + 1].device())) {
        throw new IllegalArgumentException(op + "(): meshgrid expects all tensors to have the same device");
      }
    }
    boolean xy = "xy".equals(indexing);
    if (!xy && !"ij".equals(indexing)) {
      throw new IllegalArgumentException(op + "(): torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: " + indexing);
    }
    Tensor[] in = tensors.clone();
    int n = in.length;
    if (xy && n >= 2) swap(in);
    long[] shape = new long[n];
    for (int i = 0; i < n; i++) {
      if (in[i].dim() > 1) {
        throw new IllegalArgumentException(op + "(): torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a "
            + in[i].dim() + "-D tensor");
      }
      shape[i] = in[i].numel();
    }
    List<Tensor> grids = new ArrayList<>(n);
    try (TensorScope s = TensorScope.open()) {
      for (int i = 0; i < n; i++) {
        long[] viewShape = new long[n];
        java.util.Arrays.fill(viewShape, 1);
        viewShape[i] = -1;
        grids.add(s.keep(Tensor.wrap(ViewOps.expand(op, in[i].view(viewShape).impl(op), shape))));
      }
    } catch (RuntimeException e) {
      for (Tensor g : grids) g.close();
      throw e;
    }
    if (xy && n >= 2) java.util.Collections.swap(grids, 0, 1);
    return grids;
  }

  /** torch.cartesian_prod: the [N, k] rows of every combination of the k 1-D tensors' elements (one tensor: itself). */
  public static Tensor cartesianProd(Tensor... tensors) {
    String op = "cartesianProd";
    for (Tensor t : tensors) {
      if (Tensor.implOf(t, op).dim() != 1) throw new IllegalArgumentException(op + "(): Expect a 1D vector, but got shape " + Shapes.str(t.shape()));
    }
    if (tensors.length == 1) return tensors[0].same(op);
    try (TensorScope s = TensorScope.open()) {
      List<Tensor> columns = new ArrayList<>();
      for (Tensor g : meshgrid(op, "ij", tensors)) columns.add(g.flatten());
      return s.keep(Tensor.stack(columns, 1));
    }
  }

  /**
   * torch.block_diag: the tensors (0-D as [1, 1], 1-D [n] as [1, n], 2-D as they are) down the
   * diagonal of a zero matrix of their promoted dtype, each copied into its block.
   */
  public static Tensor blockDiag(Tensor... tensors) {
    String op = "blockDiag";
    if (tensors.length == 0) return Tensor.zeros(1, 0);
    org.jtensor.ops.TypePromotion dtype = org.jtensor.ops.TypePromotion.start();
    long rows = 0, cols = 0;
    for (int i = 0; i < tensors.length; i++) {
      int n = Tensor.implOf(tensors[i], op).dim();
      if (n > 2) {
        throw new IllegalArgumentException(op + "(): torch.block_diag: Input tensors must have 2 or fewer dimensions. Input " + i
            + " has " + n + " dimensions");
      }
      dtype.tensor(tensors[i].impl(op));
      rows += n == 2 ? tensors[i].size(0) : 1;
      cols += n == 0 ? 1 : tensors[i].size(-1);
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor out = Tensor.zeros(new long[] {rows, cols}, dtype.result(), tensors[0].device());
      long r = 0, c = 0;
      for (Tensor t : tensors) {
        Tensor block = atLeast(op, t, 2);
        out.narrow(0, r, block.size(0)).narrow(1, c, block.size(1)).copy_(block);
        r += block.size(0);
        c += block.size(1);
      }
      return s.keep(out);
    }
  }

  private static void swap(Tensor[] a) {
    Tensor t = a[0];
    a[0] = a[1];
    a[1] = t;
  }

  private static Tensor atLeast(String op, Tensor t, int dims) {
    int n = Tensor.implOf(t, op).dim();
    if (n >= dims) return t.same(op);
    if (n == 0) return t.reshape(dims == 1 ? new long[] {1} : dims == 2 ? new long[] {1, 1} : new long[] {1, 1, 1});
    if (dims == 2 || n == 2) return dims == 2 ? t.unsqueeze(0) : t.unsqueeze(-1);
    try (Tensor row = t.unsqueeze(0)) {  // [n] as [1, n, 1]
      return row.unsqueeze(-1);
    }
  }

  private static List<Tensor> atLeastAll(String op, Tensor[] tensors, int dims) {
    List<Tensor> out = new ArrayList<>(tensors.length);
    try {
      for (Tensor t : tensors) out.add(atLeast(op, t, dims));
      return out;
    } catch (RuntimeException e) {
      for (Tensor t : out) t.close();
      throw e;
    }
  }

  /** cat of the tensors, each first raised to minDims (columnStack: 0 means as a column), along dimOf's dim. */
  private static Tensor joined(String op, Tensor[] tensors, int minDims, java.util.function.ToIntFunction<Tensor[]> dimOf) {
    if (tensors == null || tensors.length == 0) throw new IllegalArgumentException(op + "(): " + pyName(op) + " expects a non-empty TensorList");
    try (TensorScope s = TensorScope.open()) {
      Tensor[] parts = new Tensor[tensors.length];
      for (int i = 0; i < tensors.length; i++) {
        Tensor t = tensors[i];
        parts[i] = minDims > 0 ? atLeast(op, t, minDims)
            : Tensor.implOf(t, op).dim() <= 1 ? t.reshape(t.numel(), 1) : t.same(op);
      }
      return s.keep(Tensor.wrap(IndexAlongOps.cat(op, List.of(parts), dimOf.applyAsInt(parts))));
    }
  }

  private static String pyName(String op) {
    return op.equals("columnStack") ? "column_stack" : op;
  }

  private static Tensor[] array(String op, List<Tensor> tensors) {
    if (tensors == null) throw new IllegalArgumentException(op + "(): tensors must not be null");
    return tensors.toArray(new Tensor[0]);
  }

  /** Concatenates along dim 0. */
  public static Tensor cat(java.util.List<Tensor> tensors) {
    return cat(tensors, 0);
  }

  /** Concatenates along dim; dtypes promote, shapes match except along dim. */
  public static Tensor cat(java.util.List<Tensor> tensors, int dim) {
    return Tensor.wrap(IndexAlongOps.cat(tensors, dim));
  }

  /** torch.concat, cat's alias (its refusals name concat). */
  public static Tensor concat(java.util.List<Tensor> tensors, int dim) {
    return Tensor.wrap(IndexAlongOps.cat("concat", tensors, dim));
  }

  public static Tensor concat(java.util.List<Tensor> tensors) {
    return concat(tensors, 0);
  }

  /** torch.concatenate, cat's alias (its refusals name concatenate). */
  public static Tensor concatenate(java.util.List<Tensor> tensors, int dim) {
    return Tensor.wrap(IndexAlongOps.cat("concatenate", tensors, dim));
  }

  public static Tensor concatenate(java.util.List<Tensor> tensors) {
    return concatenate(tensors, 0);
  }

  /** torch.stack(tensors): along a new dim 0. */
  public static Tensor stack(java.util.List<Tensor> tensors) {
    return stack(tensors, 0);
  }

  /** Joins same-shaped tensors along a new dim. */
  public static Tensor stack(java.util.List<Tensor> tensors, int dim) {
    if (tensors == null) throw new IllegalArgumentException("stack(): tensors must not be null");
    if (tensors.isEmpty()) throw new IllegalArgumentException("stack(): expects a non-empty TensorList");
    for (Tensor t : tensors) Tensor.implOf(t, "stack");  // a null entry is a bad argument, a closed one closed
    long[] shape = tensors.get(0).shape();
    int d = Shapes.wrapDim("stack", dim, shape.length + 1);  // a new dim: one more place than the inputs have
    List<Tensor> parts = new ArrayList<>(tensors.size());
    try {
      for (Tensor t : tensors) {
        if (!java.util.Arrays.equals(shape, t.shape())) {
          throw new IllegalArgumentException("stack(): stack expects each tensor to be equal size, but got "
              + Shapes.str(shape) + " at entry 0 and " + Shapes.str(t.shape()) + " at entry " + tensors.indexOf(t));
        }
        parts.add(t.unsqueeze(d));
      }
      return Tensor.wrap(IndexAlongOps.cat("stack", parts, d));
    } finally {
      for (Tensor p : parts) p.close();
    }
  }
}
