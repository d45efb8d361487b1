package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A hostile review of dtype conversion values against PyTorch 2.13 (CPU). A sweep converted every
 * float16 and bfloat16 bit pattern, and edge values of the other dtypes, to every dtype through to(),
 * strided, transposed and broadcast copy_ sources, at 41 positions each: jtensor agreed with PyTorch
 * everywhere but the documented float-to-integer cases (NaN, ±inf, out of range). The bugs were in
 * the factories and scalars that convert a value on their own; each expectation below is PyTorch's.
 */
class ConversionValuesHostileTest extends ScopedTest {

  private static <T extends Throwable> void raises(Class<T> type, String message, Executable call) {
    T e = assertThrows(type, call);
    assertEquals(type, e.getClass(), "exactly " + type.getSimpleName());
    assertTrue(e.getMessage().startsWith(message), e.getMessage());
  }

  private static Tensor ints(DType d, long... v) {
    return Tensor.fromArray(v).to(d);
  }

  /** torch.linspace(5, 1, 1) is [5.] (PyTorch fills one point with start); jtensor gave [1.], the end. */
  @Test
  void linspaceOfOnePointGaveTheEndNotTheStart() {
    assertArrayEquals(new double[] {5}, Tensor.linspace(5, 1, 1, DType.FLOAT32).toDoubleArray(), 0);
    assertArrayEquals(new double[] {1.7}, Tensor.linspace(1.7, 1, 1, DType.FLOAT64).toDoubleArray(), 0);
    assertArrayEquals(new long[] {1}, Tensor.linspace(1.7, 300, 1, DType.UINT8).toLongArray());  // only start is converted
    assertArrayEquals(new boolean[] {false}, Tensor.linspace(0, 1, 1, DType.BOOL).toBooleanArray());
    raises(IllegalArgumentException.class, "linspace(): value 300.0 cannot be converted to type uint8 without overflow",
        () -> Tensor.linspace(300, 1, 1, DType.UINT8));
    assertEquals(0, Tensor.linspace(300, 1e10, 0, DType.UINT8).numel());
  }

  /**
   * PyTorch converts linspace's ends to an integer dtype (truncated, checked) before the step:
   * linspace(0.5, 10.7, 5, int64) is [0, 2, 5, 7, 10] (jtensor [0, 3, 5, 8, 10]); linspace(0, 300, 4,
   * uint8) raises "value cannot be converted to type uint8_t without overflow" (jtensor [0, 100, 200,
   * 44]); a bool linspace of two or more points raises NotImplementedError (jtensor [F, T, T]).
   */
  @Test
  void linspaceToAnIntegerDtypeUsedItsEndsUnconvertedAndWrapped() {
    assertArrayEquals(new long[] {0, 2, 5, 7, 10}, Tensor.linspace(0.5, 10.7, 5, DType.INT64).toLongArray());
    assertArrayEquals(new long[] {-2, 0, 2, 5, 7, 10}, Tensor.linspace(-2.5, 10.7, 6, DType.INT64).toLongArray());
    assertArrayEquals(new long[] {10, 6, 3, 0}, Tensor.linspace(10.9, 0.2, 4, DType.UINT8).toLongArray());
    assertArrayEquals(new long[] {0, 2, 5}, Tensor.linspace(-0.5, 5, 3, DType.INT8).toLongArray());
    assertArrayEquals(new long[] {0, 100, 200, 300}, Tensor.linspace(0, 300, 4, DType.INT16).toLongArray());
    raises(IllegalArgumentException.class, "linspace(): value 300.0 cannot be converted to type uint8 without overflow",
        () -> Tensor.linspace(0, 300, 4, DType.UINT8));
    raises(IllegalArgumentException.class, "linspace(): value -0.5 cannot be converted to type uint8 without overflow",
        () -> Tensor.linspace(-0.5, 5, 3, DType.UINT8));
    raises(IllegalArgumentException.class, "linspace(): value 70000.0 cannot be converted to type int16 without overflow",
        () -> Tensor.linspace(0, 70000, 3, DType.INT16));
    raises(IllegalArgumentException.class, "linspace(): value NaN cannot be converted to type int64 without overflow",
        () -> Tensor.linspace(Double.NaN, 1, 3, DType.INT64));
    raises(IllegalArgumentException.class, "linspace(): value 1.0E10 cannot be converted to type float16 without overflow",
        () -> Tensor.linspace(1, 1e10, 2, DType.FLOAT16));
    raises(UnsupportedOperationException.class, "linspace(): \"linspace_cpu\" not implemented for 'Bool'",
        () -> Tensor.linspace(0, 1, 3, DType.BOOL));
    double[] nan = Tensor.linspace(1, Double.NaN, 3, DType.FLOAT16).toDoubleArray();  // floating ends pass NaN on
    assertTrue(Double.isNaN(nan[0]) && Double.isNaN(nan[2]));
  }

  /** torch.arange(0, 3, dtype=torch.bool) raises NotImplementedError, even empty; jtensor gave [F, T, T]. */
  @Test
  void arangeOfBoolWasComputed() {
    String message = "arange(): \"arange_cpu\" not implemented for 'Bool'";
    raises(UnsupportedOperationException.class, message, () -> Tensor.arange(0, 3, 1, DType.BOOL));
    raises(UnsupportedOperationException.class, message, () -> Tensor.arange(0., 3., 1., DType.BOOL));
    raises(UnsupportedOperationException.class, message, () -> Tensor.arange(0, 0, 1, DType.BOOL));
  }

  /**
   * where's scalar goes through PyTorch's checked fill into the result dtype: where(c, int8, 300)
   * raises "value cannot be converted to type int8_t without overflow" (jtensor gave 44), as do
   * where(c, float32, 1e39) and where(c, 1e39, 1.0) (jtensor gave inf); where(c, 1.0, 1e39) was
   * refused in the words of full(). Float16/bfloat16 results take it (PyTorch's one-element 16-bit
   * fill skips the check: inf), as do float64 and an in-range negative int for uint8.
   */
  @Test
  void whereScalarWrappedIntoTheResultDtype() {
    Tensor c = ints(DType.BOOL, 1, 0);
    Tensor i8 = ints(DType.INT8, 1, 1);
    raises(IllegalArgumentException.class, "where(): value 300 cannot be converted to type int8 without overflow",
        () -> Tensor.where(c, i8, 300L));
    raises(IllegalArgumentException.class, "where(): value 300 cannot be converted to type int8 without overflow",
        () -> Tensor.where(c, 300L, i8));
    raises(IllegalArgumentException.class, "where(): value -129 cannot be converted to type int8 without overflow",
        () -> Tensor.where(c, i8, -129L));
    raises(IllegalArgumentException.class, "where(): value 300 cannot be converted to type int8 without overflow",
        () -> Tensor.where(c, Tensor.scalar(1L).to(DType.INT8), 300L));
    raises(IllegalArgumentException.class, "where(): value -256 cannot be converted to type uint8 without overflow",
        () -> Tensor.where(c, ints(DType.UINT8, 1, 1), -256L));
    assertArrayEquals(new long[] {1, 1}, Tensor.where(c, ints(DType.UINT8, 1, 1), -255L).toLongArray());
    assertArrayEquals(new long[] {1, 127}, Tensor.where(c, i8, 127L).toLongArray());
    Tensor f32 = Tensor.ones(new long[] {2}, DType.FLOAT32);
    raises(IllegalArgumentException.class, "where(): value 1.0E39 cannot be converted to type float32 without overflow",
        () -> Tensor.where(c, f32, 1e39));
    raises(IllegalArgumentException.class, "where(): value 1.0E39 cannot be converted to type float32 without overflow",
        () -> Tensor.where(c, 1e39, 1.0));
    raises(IllegalArgumentException.class, "where(): value 1.0E39 cannot be converted to type float32 without overflow",
        () -> Tensor.where(c, 1.0, 1e39));
    raises(IllegalArgumentException.class, "where(): value 1.0E39 cannot be converted to type float32 without overflow",
        () -> Tensor.where(c, i8, 1e39));
    assertArrayEquals(new double[] {1, Double.POSITIVE_INFINITY}, Tensor.where(c, f32, Double.POSITIVE_INFINITY).toDoubleArray(), 0);
    assertArrayEquals(new double[] {1, 2.5}, Tensor.where(c, i8, 2.5).toDoubleArray(), 0);
    assertArrayEquals(new double[] {1, Double.POSITIVE_INFINITY},
        Tensor.where(c, Tensor.ones(new long[] {2}, DType.FLOAT16), 1e39).toDoubleArray(), 0);
    assertArrayEquals(new double[] {Double.POSITIVE_INFINITY, 1},
        Tensor.where(c, 70000L, Tensor.ones(new long[] {2}, DType.FLOAT16)).toDoubleArray(), 0);
    assertArrayEquals(new double[] {1, 1e39}, Tensor.where(c, Tensor.ones(new long[] {2}, DType.FLOAT64), 1e39).toDoubleArray(), 0);
  }

  /**
   * itemLong/getLong of a floating element is Python's int(x): int(tensor(nan)) raises ValueError
   * "cannot convert float NaN to integer", inf OverflowError "cannot convert float infinity to
   * integer", and 3e19 is a Python int past a long; jtensor gave 0, Long.MAX_VALUE and Long.MAX_VALUE.
   */
  @Test
  void itemLongOfNaNInfinityOrAHugeFloatWasASilentValue() {
    raises(ArithmeticException.class, "itemLong(): cannot convert float NaN to integer",
        () -> Tensor.scalar(Double.NaN, DType.FLOAT32).itemLong());
    raises(ArithmeticException.class, "itemLong(): cannot convert float infinity to integer",
        () -> Tensor.scalar(Double.NEGATIVE_INFINITY, DType.FLOAT16).itemLong());
    raises(ArithmeticException.class, "itemLong(): value 3.0E19 does not fit in a long",
        () -> Tensor.scalar(3e19, DType.FLOAT64).itemLong());
    raises(ArithmeticException.class, "itemLong(): value 9.223372036854776E18 does not fit in a long",
        () -> Tensor.scalar(0x1p63, DType.BFLOAT16).itemLong());
    raises(ArithmeticException.class, "getLong(): cannot convert float NaN to integer",
        () -> Tensor.fromArray(new double[] {1, Double.NaN}).getLong(1));
    assertEquals(Long.MIN_VALUE, Tensor.scalar(-0x1p63, DType.FLOAT32).itemLong());
    assertEquals(-2, Tensor.scalar(-2.7, DType.FLOAT64).itemLong());
    assertEquals(65504, Tensor.scalar(65504.0, DType.FLOAT16).itemLong());
    assertEquals(-1, Tensor.fromArray(new long[] {5, -1}).getLong(1));
  }
}
