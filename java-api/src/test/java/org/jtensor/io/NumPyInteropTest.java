package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files jtensor writes load in NumPy: check_jtensor_files.py reads them with NumPy alone and
 * checks every value. Skipped (not passed) where python3 with numpy is missing.
 */
class NumPyInteropTest extends IoTest {
  @TempDir Path dir;

  private static String run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return "timed out";
    }
    return p.exitValue() + ":" + out.strip();
  }

  private static boolean numpyAvailable() {
    try {
      return run("python3", "-c", "import numpy").equals("0:");
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  @Test
  void numpyReadsWhatJtensorWrites() throws Exception {
    assumeTrue(numpyAvailable(), "python3 with numpy is not installed");
    Map<String, Tensor> arrays = new LinkedHashMap<>();
    for (DType t : DType.values()) {
      if (t != DType.BFLOAT16) arrays.put(t.toString(), sample(t));
    }
    arrays.put("fortran", Tensor.arange(0, 6, 1, DType.FLOAT32).view(2, 3).t());
    arrays.put("strided", Tensor.arange(24).view(2, 3, 4).slice(2, 1, 4, 2));
    arrays.put("scalar", Tensor.scalar(2.5, DType.FLOAT64));
    arrays.put("empty", Tensor.zeros(new long[] {2, 0, 3}, DType.INT8));
    for (Map.Entry<String, Tensor> e : arrays.entrySet()) Npy.save(e.getValue(), dir.resolve(e.getKey() + ".npy"));
    Npy.saveNpz(arrays, dir.resolve("stored.npz"));
    Npy.saveNpzCompressed(arrays, dir.resolve("compressed.npz"));

    Map<String, Tensor> st = new LinkedHashMap<>();
    for (DType t : DType.values()) st.put(t.toString(), sample(t));
    st.put("float32", sample(DType.FLOAT32).t().contiguous().t());  // a non-contiguous view is written in row-major order
    SafeTensors.save(st, Map.of("written_by", "jtensor"), dir.resolve("all.safetensors"));

    String script = Fixtures.path("check_jtensor_files.py").toString();
    assertEquals("0:OK", run("python3", script, dir.toString()));
  }
}
