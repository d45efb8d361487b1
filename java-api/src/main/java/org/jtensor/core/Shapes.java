package org.jtensor.core;

import java.util.Arrays;

/** Shape and stride arithmetic, PyTorch's rules, shared by views, factories and kernels' plans. */
public final class Shapes {
  /** Native kernels and JNI plans are sized for this many dims (PyTorch's own practical limit). */
  public static final int MAX_DIMS = 64;

  private Shapes() {}

  /** Wraps a possibly negative dim into [0, ndim); a 0-dim tensor accepts dims -1 and 0. */
  public static int wrapDim(String op, long dim, int ndim) {
    int n = Math.max(ndim, 1);
    if (dim < -n || dim >= n) {
      throw new IllegalArgumentException(op + "(): Dimension out of range (expected to be in range of ["
          + (-n) + ", " + (n - 1) + "], but got " + dim + ")");
    }
    return (int) (dim < 0 ? dim + n : dim);
  }

  /** PyTorch's IndexError for ops that take no dim of a 0-dim tensor (maybe_wrap_dim without the scalar allowance). */
  public static IllegalArgumentException noDimensions(String op, long dim) {
    return new IllegalArgumentException(op + "(): Dimension specified as " + dim + " but tensor has no dimensions");
  }

  /** expand()'s refusal of fewer target sizes than the tensor has dims, in PyTorch's words. */
  public static String tooFewExpandSizes(int sizes, int dims) {
    return "the number of sizes provided (" + sizes + ") must be greater or equal to the number of dimensions in the tensor (" + dims + ")";
  }

  /** expand()'s refusal of a target size that differs from a dim other than 1, in PyTorch's words. */
  public static String expandMismatch(long target, long have, int dim, long[] targetSizes, long[] sizes) {
    return "The expanded size of the tensor (" + target + ") must match the existing size (" + have + ") at non-singleton dimension "
        + dim + ".  Target sizes: " + str(targetSizes) + ".  Tensor sizes: " + str(sizes);
  }

  public static long numel(String op, long[] sizes) {
    long n = 1;
    for (long s : sizes) {
      if (s < 0) throw new IllegalArgumentException(op + "(): Trying to create tensor with negative dimension "
          + s + ": " + Arrays.toString(sizes));
      n = multiply(op, n, s);
    }
    return n;
  }

  public static long multiply(String op, long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(op + "(): size overflows a 64-bit element count");
    }
  }

  public static void checkDims(String op, int ndim) {
    if (ndim > MAX_DIMS) {
      throw new IllegalArgumentException(op + "(): tensors have at most " + MAX_DIMS + " dims, got " + ndim);
    }
  }

  /**
   * Row-major strides for a tensor op creates, refused as PyTorch refuses them when a stride
   * overflows int64 (possible only with a size-0 dim, whose numel is 0: [0, 2^62, 4]).
   */
  public static long[] contiguousStrides(String op, long[] sizes) {
    long s = 1;
    for (int d = sizes.length - 1; d > 0; d--) {
      try {
        s = Math.multiplyExact(s, Math.max(sizes[d], 1));
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(op + "(): Stride calculation overflowed for size " + str(sizes));
      }
    }
    return contiguousStrides(sizes);
  }

  /** Row-major strides; size-0 and size-1 dims get the stride they would have with size 1. */
  public static long[] contiguousStrides(long[] sizes) {
    long[] st = new long[sizes.length];
    long s = 1;
    for (int d = sizes.length - 1; d >= 0; d--) {
      st[d] = s;
      s *= Math.max(sizes[d], 1);
    }
    return st;
  }

  /** PyTorch's is_contiguous: size-1 dims may have any stride, and an empty tensor is contiguous. */
  public static boolean isContiguous(long[] sizes, long[] strides) {
    long expected = 1;
    for (int d = sizes.length - 1; d >= 0; d--) {
      if (sizes[d] == 0) return true;
    }
    for (int d = sizes.length - 1; d >= 0; d--) {
      if (sizes[d] == 1) continue;
      if (strides[d] != expected) return false;
      expected *= sizes[d];
    }
    return true;
  }

  /** Every element at its own address with no gaps, in some dim order (is_non_overlapping_and_dense). */
  public static boolean isNonOverlappingAndDense(long[] sizes, long[] strides) {
    int n = sizes.length;
    if (n == 1) return sizes[0] < 2 || strides[0] == 1;
    Integer[] perm = new Integer[n];
    for (int i = 0; i < n; i++) perm[i] = i;
    Arrays.sort(perm, (a, b) -> {
      if (sizes[a] < 2) return sizes[b] < 2 ? 0 : 1;
      if (sizes[b] < 2) return -1;
      return Long.compare(strides[a], strides[b]);
    });
    long require = 1;
    for (int i : perm) {
      if (sizes[i] < 2) return true;
      if (strides[i] != require) return false;
      require *= sizes[i];
    }
    return true;
  }

  /** Orders two dims: negative keeps d0 inside d1, positive swaps them, 0 leaves them as they are. */
  public interface DimOrder {
    int compare(int d0, int d1);
  }

  /**
   * Dense strides whose dim order follows order (PyTorch's insertion sort, starting from the
   * row-major order): the shared core of infer_dense_strides and TensorIterator's output layout.
   */
  public static long[] denseStridesInOrder(long[] sizes, DimOrder order) {
    int n = sizes.length;
    int[] perm = new int[n];  // perm[0] is the innermost dim
    for (int i = 0; i < n; i++) perm[i] = n - 1 - i;
    for (int i = 1; i < n; i++) {
      int dim1 = i;
      for (int dim0 = i - 1; dim0 >= 0; dim0--) {
        int cmp = order.compare(perm[dim0], perm[dim1]);
        if (cmp > 0) {
          int t = perm[dim0];
          perm[dim0] = perm[dim1];
          perm[dim1] = t;
          dim1 = dim0;
        } else if (cmp < 0) {
          break;
        }
      }
    }
    long[] out = new long[n];
    long cur = 1;
    for (int i = 0; i < n; i++) {
      out[perm[i]] = cur;
      cur *= Math.max(sizes[perm[i]], 1);
    }
    return out;
  }

  /** Dense strides that keep the dim order of the given strides (PyTorch's infer_dense_strides). */
  public static long[] denseStridesLike(long[] sizes, long[] strides) {
    return denseStridesInOrder(sizes, (d0, d1) -> compareForDense(sizes, strides, d0, d1));
  }

  private static int compareForDense(long[] sizes, long[] strides, int d0, int d1) {
    long s0 = strides[d0], s1 = strides[d1];
    if (s0 == 0 || s1 == 0) return 0;  // ambiguous: keep order
    if (s0 != s1) return s0 < s1 ? -1 : 1;
    return sizes[d0] > sizes[d1] ? 1 : 0;
  }

  /** Strides for clone()/empty_like with preserve_format. */
  public static long[] preservedStrides(long[] sizes, long[] strides) {
    return isNonOverlappingAndDense(sizes, strides) ? strides.clone() : denseStridesLike(sizes, strides);
  }

  /** Resolves one -1 in a requested shape against numel (infer_size). */
  public static long[] inferSize(String op, long[] shape, long numel) {
    long[] out = shape.clone();
    int infer = -1;
    long known = 1;
    for (int d = 0; d < out.length; d++) {
      if (out[d] == -1) {
        if (infer >= 0) throw new IllegalArgumentException(op + "(): only one dimension can be inferred");
        infer = d;
      } else if (out[d] < 0) {
        throw new IllegalArgumentException(op + "(): invalid shape dimension " + out[d] + " at index " + d + " of shape "
            + Arrays.toString(shape));
      } else {
        known = multiply(op, known, out[d]);
      }
    }
    if (infer >= 0 && known == 0 && numel == 0) {  // -1 is ambiguous with a 0-sized dim
      throw new IllegalArgumentException(op + "(): cannot reshape tensor of 0 elements into shape " + Arrays.toString(shape)
          + " because the unspecified dimension size -1 can be any value and is ambiguous");
    }
    boolean ok = infer >= 0 ? known > 0 && numel % known == 0 : known == numel;
    if (!ok) {
      throw new IllegalArgumentException(op + "(): shape '" + Arrays.toString(shape) + "' is invalid for input of size " + numel);
    }
    if (infer >= 0) out[infer] = numel / known;
    return out;
  }

  /**
   * Strides that let a tensor of (sizes, strides) be viewed as newShape without copying, or null
   * when a new dim would span two non-contiguous chunks (PyTorch's computeStride).
   */
  public static long[] viewStrides(long[] sizes, long[] strides, long[] newShape, long numel) {
    long[] ns = new long[newShape.length];
    if (sizes.length == 0) {
      Arrays.fill(ns, 1);
      return ns;
    }
    if (numel == 0) return Arrays.equals(sizes, newShape) ? strides.clone() : contiguousStrides(newShape);
    int viewD = newShape.length - 1;
    long chunkBase = strides[strides.length - 1];
    long tensorNumel = 1, viewNumel = 1;
    for (int td = sizes.length - 1; td >= 0; td--) {
      tensorNumel *= sizes[td];
      if (td == 0 || (sizes[td - 1] != 1 && strides[td - 1] != tensorNumel * chunkBase)) {
        while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
          ns[viewD] = viewNumel * chunkBase;
          viewNumel *= newShape[viewD];
          viewD--;
        }
        if (viewNumel != tensorNumel) return null;
        if (td > 0) {
          chunkBase = strides[td - 1];
          tensorNumel = 1;
          viewNumel = 1;
        }
      }
    }
    return viewD == -1 ? ns : null;
  }

  /** The broadcast shape of a and b (numpy rules), or an error naming the first clash. */
  public static long[] broadcastShapes(String op, long[] a, long[] b) {
    int n = Math.max(a.length, b.length);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      int da = a.length - n + i, db = b.length - n + i;
      long sa = da >= 0 ? a[da] : 1, sb = db >= 0 ? b[db] : 1;
      if (sa != sb && sa != 1 && sb != 1) {
        throw new IllegalArgumentException(op + "(): The size of tensor a (" + sa + ") must match the size of tensor b ("
            + sb + ") at non-singleton dimension " + i);
      }
      out[i] = sa == 1 ? sb : sa;
    }
    return out;
  }

  /**
   * Bytes a (sizes, strides, offset) tensor needs from its storage: one past its last element
   * (computeStorageNbytes), 0 when it has no elements.
   */
  public static long storageBytesNeeded(String op, long[] sizes, long[] strides, long offset, int itemSize) {
    long last = 0;
    for (int d = 0; d < sizes.length; d++) {
      if (sizes[d] == 0) return 0;
      last = addExact(op, last, multiply(op, strides[d], sizes[d] - 1));
    }
    return multiply(op, addExact(op, addExact(op, offset, last), 1), itemSize);
  }

  private static long addExact(String op, long a, long b) {
    try {
      return Math.addExact(a, b);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(op + "(): storage extent overflows 64 bits");
    }
  }

  public static String str(long[] a) {
    return Arrays.toString(a);
  }
}
