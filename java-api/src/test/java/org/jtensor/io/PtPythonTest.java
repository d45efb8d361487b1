package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Python's torch.load(weights_only=True) reads what jtensor writes (values, geometry, storage
 * sharing), and jtensor reads what torch.save writes back. Runs where a Python with torch is
 * installed, and is skipped elsewhere. Prefer a torch inside a virtual environment or pyenv:
 * Debian's python3-torch (1.13.1, which passed this test) puts libtorch_cpu.so and libc10.so on
 * the system linker's path, and the libtorch presets' first load into an empty JavaCPP cache then
 * picks those up instead of their own 2.10 copies and crashes the JVM.
 */
class PtPythonTest {
  @TempDir Path dir;

  /** The first interpreter that imports torch, or null. */
  static String pythonWithTorch() {
    for (String python : List.of("python3", "/usr/bin/python3", "python")) {
      try {
        Process p = new ProcessBuilder(python, "-c", "import torch").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0) return python;
        p.destroyForcibly();
      } catch (IOException e) {
        // not installed under this name
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    return null;
  }

  @ParameterizedTest
  @ValueSource(longs = {ZipWriter.ZIP64_AT, 0})  // as saved, and with zip64 fields everywhere (as a file over 4 GiB has)
  void torchLoadsJtensorsFileAndJtensorLoadsTorchsCopy(long zip64Threshold) throws Exception {
    String python = pythonWithTorch();
    assumeTrue(python != null, "no Python with torch on this machine");
    Path in = dir.resolve("from_jtensor.pt"), out = dir.resolve("from_torch.pt");
    try (TensorScope s = TensorScope.open()) {
      Map<String, Tensor> want = PtSamples.mixed();
      PtSaver.save(List.copyOf(want.keySet()), List.copyOf(want.values()), true, in, zip64Threshold);

      Path script = Fixtures.path("torch_reads_jtensor.py");
      Process p = new ProcessBuilder(python, script.toString(), in.toString(), out.toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(300, TimeUnit.SECONDS), "python finished");
      assertEquals(0, p.exitValue(), "torch.load(weights_only=True) of jtensor's file; output: " + stdout);
      String[] lines = stdout.strip().split("\n");
      JsonNode seen = new ObjectMapper().readTree(lines[lines.length - 1]);
      PtFixturesTest.match("torch " + seen.get("torch_version").asText(), seen.get("loaded"), want, new HashMap<>());

      Map<String, Tensor> back = Tensors.load(out);
      try {
        assertEquals(List.copyOf(want.keySet()), List.copyOf(back.keySet()));
        for (String k : want.keySet()) PtSamples.assertSameTensor(k, want.get(k), back.get(k));
        assertTrue(PtSamples.sameStorage(back.get("base"), back.get("base_row")));
      } finally {
        Tensors.closeAll(back);
      }
    }
    assertTrue(Files.size(out) > 0);
  }
}
