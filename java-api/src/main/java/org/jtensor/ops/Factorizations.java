package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;

/**
 * torch.linalg's factorizations on fresh contiguous copies (the caller's tensors are never
 * written; the ops compute detached and {@link #record} the result as their registry op), and the
 * checks every linalg op makes first, in PyTorch's words. The kernels are the CPU's (kernels/linalg.cpp).
 */
final class Factorizations {
  private Factorizations() {}

  /** A's LU factors (L below the unit diagonal, U on and above), its int32 1-based pivots and int32 info per matrix. */
  record Lu(Tensor lu, Tensor pivots, Tensor info) implements AutoCloseable {
    @Override
    public void close() {
      lu.close();
      pivots.close();
      info.close();
    }
  }

  /**
   * PyTorch's checks of a linalg op's matrix argument A (torchName: how its messages name the op):
   * CPU, at least 2-D, square, floating, then float32 or float64 (see requireKernelDtype for kernel).
   */
  static void requireSquare(String op, String torchName, Tensor a, String kernel) {
    Handles.implOf(a, op);
    requireCpu(op, a);
    if (a.dim() < 2) throw new IllegalArgumentException(op + "(): " + torchName + ": The input tensor A must have at least 2 dimensions.");
    long rows = a.shape()[a.dim() - 2], cols = a.shape()[a.dim() - 1];
    if (rows != cols) {
      throw new IllegalArgumentException(op + "(): " + torchName + ": A must be batches of square matrices, but they are " + rows + " by " + cols
          + " matrices");
    }
    requireFloating(op, torchName, a);  // after the shape, as PyTorch's squareCheckInputs comes first (solve checks the dtype first)
    requireKernelDtype(op, torchName, a, kernel);
  }

  /** PyTorch answers cuSOLVER's factorizations on CUDA; there are none here. */
  static void requireCpu(String op, Tensor t) {
    if (t.device().type() != Device.Type.CPU) throw new UnsupportedOperationException(op + "(): not implemented for " + t.device().type());
  }

  static void requireFloating(String op, String torchName, Tensor t) {
    if (!t.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(op + "(): " + torchName + ": Expected a floating point or complex tensor as input. Got "
          + ScalarTypes.name(t.dtype()));
    }
  }

  /**
   * Dtypes other than float32 and float64: refused as the op's kernel refuses them ("lu_cpu" not
   * implemented for 'Half'), or, with kernel null, as ops that check first say it (Low precision dtypes not supported).
   */
  static void requireKernelDtype(String op, String torchName, Tensor t, String kernel) {
    if (t.dtype() == DType.FLOAT32 || t.dtype() == DType.FLOAT64) return;
    if (kernel != null) throw ScalarTypes.notImplemented(op, kernel, t.dtype());
    throw new IllegalArgumentException(op + "(): " + torchName + ": Low precision dtypes not supported. Got " + ScalarTypes.name(t.dtype()));
  }

  /** A's matrices' LU factorization with partial pivoting (A checked by requireSquare). */
  static Lu lu(String op, Tensor a) {
    long[] shape = a.shape();
    long[] batch = Arrays.copyOf(shape, shape.length - 2);
    long n = shape[shape.length - 1];
    try (TensorScope s = TensorScope.open()) {
      Tensor lu = copyOf(a);
      Tensor pivots = Tensor.zeros(append(batch, n), DType.INT32);
      Tensor info = Tensor.zeros(batch, DType.INT32);
      if (lu.numel() > 0) {
        Dispatcher.backend(a.device()).luFactor(op, Handles.impl(lu, op), Handles.impl(pivots, op), Handles.impl(info, op));
      }
      return new Lu(s.keep(lu), s.keep(pivots), s.keep(info));
    }
  }

  /** A⁻¹B for f's matrices and b's [batch, n, k] of f's batch shape exactly: a new contiguous tensor. */
  static Tensor luSolve(String op, Lu f, Tensor b) {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = copyOf(b);
      if (x.numel() > 0) Dispatcher.backend(b.device()).luSolve(op, Handles.impl(f.lu(), op), Handles.impl(f.pivots(), op), Handles.impl(x, op));
      return s.keep(x);
    }
  }

  /** A's lower Cholesky factors (from A's lower triangle) and info per matrix. */
  static Tensor[] cholesky(String op, Tensor a) {
    long[] shape = a.shape();
    try (TensorScope s = TensorScope.open()) {
      Tensor l = copyOf(a);
      Tensor info = Tensor.zeros(Arrays.copyOf(shape, shape.length - 2), DType.INT32);
      if (l.numel() > 0) Dispatcher.backend(a.device()).cholesky(op, Handles.impl(l, op), Handles.impl(info, op));
      return new Tensor[] {s.keep(l), s.keep(info)};
    }
  }

  /**
   * The first failed matrix's info entry with its batch position, as PyTorch's _LinAlgError words
   * it: "(Batch element i): " before what(info) where A had batch dims, nothing raised when every
   * entry is 0.
   */
  static void raiseIfFailed(String op, String torchName, Tensor info, boolean batched, java.util.function.IntFunction<String> what) {
    if (info.numel() == 0) return;
    int[] codes = info.toIntArray();
    for (int i = 0; i < codes.length; i++) {
      if (codes[i] == 0) continue;
      throw new ArithmeticException(op + "(): " + torchName + ": " + (batched ? "(Batch element " + i + "): " : "") + what.apply(codes[i]));
    }
  }

  /**
   * result, computed detached, recorded as op (with args) on inputs: the handle returned replaces
   * result, which is closed, also when an input was closed meanwhile (another thread's close
   * during the kernel: IllegalStateException, and nothing left).
   */
  static Tensor record(org.jtensor.dispatch.Op op, String name, Object args, Tensor result, Tensor... inputs) {
    TensorImpl[] in = new TensorImpl[inputs.length];
    try {
      for (int i = 0; i < in.length; i++) in[i] = Handles.impl(inputs[i], name);
    } catch (RuntimeException | Error e) {
      result.close();
      throw e;
    }
    TensorImpl out = Handles.impl(result, name);
    out.retain();
    result.close();
    return Handles.wrap(Recorder.recorded(op, name, in, args, out));
  }

  /** A contiguous copy of t's values, detached: the kernels write it in place. */
  static Tensor copyOf(Tensor t) {
    try (Tensor d = t.detach()) {
      Tensor c = Tensor.empty(t.shape(), t.dtype(), t.device());
      try {
        c.copy_(d);
      } catch (RuntimeException | Error e) {
        c.close();
        throw e;
      }
      return c;
    }
  }

  static long[] append(long[] shape, long... more) {
    long[] r = Arrays.copyOf(shape, shape.length + more.length);
    System.arraycopy(more, 0, r, shape.length, more.length);
    return r;
  }

  static String matrixShape(long[] shape) {
    return shape[shape.length - 2] + "x" + shape[shape.length - 1];
  }

  static long[] batchShape(long[] shape) {
    return Arrays.copyOf(shape, shape.length - 2);
  }
}
