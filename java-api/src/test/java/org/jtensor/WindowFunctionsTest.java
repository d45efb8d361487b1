package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * hannWindow, hammingWindow, blackmanWindow, bartlettWindow and kaiserWindow against PyTorch 2.13
 * (resources/windows/fixtures.pt from make_fixtures.py beside it): lengths 0 to 9 and 64, periodic and
 * symmetric, four floating dtypes, hamming's alpha/beta and kaiser's beta; refusals in PyTorch's words.
 */
class WindowFunctionsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/windows/fixtures.pt");

  private static Tensor call(String[] key) {
    long n = Long.parseLong(key[1]);
    boolean periodic = key[2].equals("1");
    DType dtype = DType.fromName(key[3]);
    switch (key[0]) {
      case "hann": return Tensor.hannWindow(n, periodic, dtype);
      case "hamming": return key.length > 4 ? Tensor.hammingWindow(n, periodic, 0.3, 0.2, dtype) : Tensor.hammingWindow(n, periodic, 0.54, 0.46, dtype);
      case "blackman": return Tensor.blackmanWindow(n, periodic, dtype);
      case "bartlett": return Tensor.bartlettWindow(n, periodic, dtype);
      case "kaiser": return Tensor.kaiserWindow(n, periodic, key.length > 4 ? Double.parseDouble(key[4] + "." + key[5]) : 12.0, dtype);
      default: throw new AssertionError(key[0]);
    }
  }

  @Test
  void valuesAndDtypesMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(506, cases.size());
    for (Object c : cases) {
      String name = (String) c;
      Tensor want = fixtures.tensor(name), got = call(name.split("\\."));
      assertEquals(want.dtype(), got.dtype(), name);
      assertArrayEquals(want.shape(), got.shape(), name);
      // the same ops in the same order: float16 and bfloat16 exact, float32 within a few ulps (cos), float64 within one; kaiser's
      // I0 (a series of its own) within a few ulps
      boolean kaiser = name.startsWith("kaiser");
      double tol = want.dtype() == DType.FLOAT64 ? (kaiser ? 1e-14 : 1e-15) : want.dtype() == DType.FLOAT32 ? 1e-6 : kaiser ? 1e-2 : 0;
      Close.assertElements(name, want.toDoubleArray(), got.toDoubleArray(), Close.absolute(tol));
    }
  }

  @Test
  void defaultsAreFloat32Periodic() {
    assertArrayEquals(Tensor.hannWindow(5, true, DType.FLOAT32).toDoubleArray(), Tensor.hannWindow(5).toDoubleArray());
    assertArrayEquals(Tensor.hammingWindow(5, true, 0.54, 0.46, DType.FLOAT32).toDoubleArray(), Tensor.hammingWindow(5).toDoubleArray());
    assertArrayEquals(Tensor.hammingWindow(5, false, 0.3, 0.46, DType.FLOAT32).toDoubleArray(), Tensor.hammingWindow(5, false, 0.3).toDoubleArray());
    assertArrayEquals(Tensor.kaiserWindow(5, true, 12.0, DType.FLOAT32).toDoubleArray(), Tensor.kaiserWindow(5).toDoubleArray());
    assertEquals(DType.FLOAT32, Tensor.blackmanWindow(4).dtype());
    assertEquals(DType.FLOAT32, Tensor.bartlettWindow(4, false).dtype());
    assertArrayEquals(new long[] {0}, Tensor.kaiserWindow(0, false).shape());
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Goldens.refused("hannWindow(): requires non-negative window_length, got window_length=-1", () -> Tensor.hannWindow(-1));
    Goldens.refused("kaiserWindow(): requires non-negative window_length, got window_length=-3", () -> Tensor.kaiserWindow(-3, false));
    Goldens.refused("hammingWindow(): expects floating point dtypes, got: int64", () -> Tensor.hammingWindow(3, true, 0.5, 0.5, DType.INT64));
    Goldens.refused("bartlettWindow(): expects floating point dtypes, got: bool", () -> Tensor.bartlettWindow(0, true, DType.BOOL));
  }
}
