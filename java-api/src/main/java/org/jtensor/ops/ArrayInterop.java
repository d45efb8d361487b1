package org.jtensor.ops;

import java.nio.ByteBuffer;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.core.DirectBuffers;
import org.jtensor.core.Shapes;
import org.jtensor.core.StorageImpl;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Backend;
import org.jtensor.dispatch.Dispatcher;

/**
 * Tensors to and from nested Java arrays (float[][], double[][][], ...) and direct buffers. Each
 * innermost row crosses JNI once, straight between the Java array and the storage: one copy.
 */
public final class ArrayInterop {
  private ArrayInterop() {}

  /** A contiguous tensor of dtype holding a rectangular nested array (depth = the tensor's dims). */
  public static TensorImpl fromNested(Object data, int depth, DType dtype) {
    long[] shape = shapeOf(data, depth);
    TensorImpl t = DataOps.empty("fromArray", shape, dtype, Device.CPU);
    try {
      if (t.numel() > 0) forEachRow(data, depth, new long[] {0}, shape[depth - 1], (row, offset) -> rowWrite(t, row, offset));
    } catch (RuntimeException | Error e) {
      t.release();
      throw e;
    }
    return t;
  }

  /** The tensor's elements, converted to as, in a new nested array of component (float.class, ...) with t's dims. */
  public static Object toNested(String op, TensorImpl t, DType as, int depth, Class<?> component) {
    if (t.dim() != depth) throw new IllegalArgumentException(op + "(): expects a " + depth + "-D tensor, got " + t.dim() + "-D");
    if (t.device().isMeta()) throw new UnsupportedOperationException(op + "(): a meta tensor has no data to read");
    long[] s = t.sizes();
    int[] dims = new int[depth];
    for (int d = 0; d < depth; d++) dims[d] = DataOps.checkedArrayLength(op, s[d]);
    TensorImpl c = t.isContiguous() && t.dtype() == as && t.device().isCpu() ? t : DataOps.cloneAs(op, t, as, Device.CPU, true);
    try {
      Object out = java.lang.reflect.Array.newInstance(component, dims);
      if (c.numel() > 0) forEachRow(out, depth, new long[] {0}, s[depth - 1], (row, offset) -> rowRead(op, c, row, offset));
      return out;
    } finally {
      if (c != t) c.release();
    }
  }

  /** A contiguous tensor over a direct buffer's remaining bytes: no copy; the buffer stays reachable while it lives. */
  public static TensorImpl fromBuffer(ByteBuffer buffer, DType dtype, long[] shape) {
    String op = "fromBuffer";
    if (dtype == null) throw new IllegalArgumentException(op + "(): argument 'dtype' must not be null");
    if (shape == null) throw new IllegalArgumentException(op + "(): argument 'shape' must not be null");
    if (buffer == null) throw new IllegalArgumentException(op + "(): argument 'buffer' must not be null");
    ByteBuffer direct = StorageBytes.snapshot(buffer);  // the checks below and the storage see one position and limit
    long[] s = shape.length == 0 ? wholeBuffer(op, direct, dtype) : shape.clone();
    long need = Shapes.multiply(op, Shapes.numel(op, s), dtype.itemSize());  // 2^61 float64s must not wrap to 0 bytes
    if (need > direct.remaining()) {
      throw new IllegalArgumentException(op + "(): shape " + Shapes.str(s) + " of " + dtype + " needs " + need
          + " bytes but the buffer has " + direct.remaining() + " remaining");
    }
    if (direct.isDirect() && direct.remaining() > 0 && DirectBuffers.address(direct) % dtype.itemSize() != 0) {
      throw new IllegalArgumentException(op + "(): the buffer's data at position " + direct.position() + " is not aligned to "
          + dtype + "'s " + dtype.itemSize() + " bytes; copy it into an aligned buffer first");
    }
    StorageImpl storage = StorageBytes.wrap(op, direct);
    return TensorImpl.create(storage, dtype, s, Shapes.contiguousStrides(s), 0);
  }

  /** No shape: a 1-D tensor over every remaining byte, as torch.frombuffer's count=-1 and as fromArray(float[]). */
  private static long[] wholeBuffer(String op, ByteBuffer direct, DType dtype) {
    int n = direct.remaining(), item = dtype.itemSize();
    if (n % item != 0) {
      throw new IllegalArgumentException(op + "(): the buffer's " + n + " remaining bytes are not a multiple of " + dtype
          + "'s " + item + "; give a shape");
    }
    return new long[] {n / item};
  }

  /** A contiguous CPU tensor's bytes as a little-endian direct buffer that holds its storage until collected. */
  public static ByteBuffer asByteBuffer(TensorImpl t) {
    String op = "asByteBuffer";
    if (t.requiresGrad()) {  // torch's numpy() rule: writes through the buffer would bypass autograd's version counter
      throw new IllegalStateException(op + "(): Can't call asByteBuffer() on a tensor that requires grad. "
          + "Use detach().asByteBuffer() instead.");
    }
    TensorImpl.Meta m = t.meta();  // storage, offset and dtype from one snapshot
    if (!m.contiguous) throw new IllegalArgumentException(op + "(): the tensor must be contiguous; call contiguous() first");
    int item = m.dtype.itemSize();
    return StorageBytes.asByteBuffer(op, m.storage, m.offset * item, m.numel * item);
  }

  private interface RowAction {
    void apply(Object row, long offset);
  }

  /** Walks the innermost arrays in row-major order; offset[0] counts elements written so far. */
  private static void forEachRow(Object data, int depth, long[] offset, long rowLength, RowAction action) {
    if (depth == 1) {
      action.apply(data, offset[0]);
      offset[0] += rowLength;
      return;
    }
    for (Object sub : (Object[]) data) forEachRow(sub, depth - 1, offset, rowLength, action);
  }

  private static long[] shapeOf(Object data, int depth) {
    long[] shape = new long[depth];
    Object level = data;
    for (int d = 0; d < depth; d++) {
      if (level == null) throw new IllegalArgumentException("fromArray(): the array is null at dim " + d);
      shape[d] = java.lang.reflect.Array.getLength(level);
      level = shape[d] > 0 && d < depth - 1 ? ((Object[]) level)[0] : null;
      if (shape[d] == 0) break;  // an empty dim: later dims stay 0
    }
    checkRectangular(data, shape, 0, "");
    return shape;
  }

  private static void checkRectangular(Object a, long[] shape, int d, String at) {
    if (a == null) throw new IllegalArgumentException("fromArray(): the array" + at + " is null");
    int n = java.lang.reflect.Array.getLength(a);
    if (n != shape[d]) {
      throw new IllegalArgumentException("fromArray(): the array" + at + " has " + n + " elements but dim " + d + " has "
          + shape[d] + " (a ragged array)");
    }
    if (d + 1 < shape.length) {
      Object[] rows = (Object[]) a;
      for (int i = 0; i < n; i++) checkRectangular(rows[i], shape, d + 1, at + "[" + i + "]");
    }
  }

  private static void rowWrite(TensorImpl t, Object row, long offset) {
    withRow(t, row, offset, (b, r) -> b.write("fromArray", r, row));
  }

  private static void rowRead(String op, TensorImpl t, Object row, long offset) {
    withRow(t, row, offset, (b, r) -> b.read(op, r, row));
  }

  /** A 1-D view of one row of the contiguous t, handed to the backend's bulk copy. */
  private static void withRow(TensorImpl t, Object row, long offset, java.util.function.BiConsumer<Backend, TensorImpl> copy) {
    int n = java.lang.reflect.Array.getLength(row);
    if (n == 0) return;
    TensorImpl.Meta m = t.retainMeta();  // storage and offset from one snapshot, the storage retained the one used
    TensorImpl r = TensorImpl.create(m.storage, t.dtype(), new long[] {n}, new long[] {1}, m.offset + offset);
    try {
      copy.accept(Dispatcher.backend(Device.CPU), r);
    } finally {
      r.release();
    }
  }
}
