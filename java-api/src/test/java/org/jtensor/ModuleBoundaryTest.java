package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import moduleprobe.ModuleProbe;
import org.junit.jupiter.api.Test;

/**
 * jtensor as a named module, the way a modular application loads it: a child JVM with the
 * library's module and its dependencies on the module path runs {@link ModuleProbe}, which
 * computes with the API, finds the internals (core, dispatch, the JNI bridge) closed to it, and
 * sees the CUDA build the class path sees.
 */
class ModuleBoundaryTest {
  @Test
  void apiWorksAndInternalsAreClosedOnTheModulePath() throws Exception {
    List<String> modulePath = new ArrayList<>();
    String testClasses = null;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry);
      String name = p.getFileName().toString();
      if (Files.isDirectory(p) && Files.exists(p.resolve("module-info.class"))) modulePath.add(entry);
      else if (Files.isDirectory(p) && Files.exists(p.resolve("moduleprobe"))) testClasses = entry;
      else if (name.startsWith("jtensor-bindings") || name.startsWith("javacpp-") || name.startsWith("openblas-")) {
        modulePath.add(entry);
      }
    }
    assertTrue(testClasses != null && modulePath.size() >= 4, "found the modules on " + System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--module-path", String.join(File.pathSeparator, modulePath), "--add-modules", "ALL-MODULE-PATH",
        "-cp", testClasses));
    String cache = System.getProperty("org.bytedeco.javacpp.cachedir");
    if (cache != null) cmd.add("-Dorg.bytedeco.javacpp.cachedir=" + cache);
    cmd.add(ModuleProbe.class.getName());
    // The probe checks the module path reports the CUDA build the class path sees (CudaProbe finds
    // the library with JavaCPP's lookup, as the loader that loads it does).
    boolean cudaBuilt = org.jtensor.bindings.JtNative.class.getResource(
        org.bytedeco.javacpp.Loader.getPlatform() + "/libjtensor_cuda.so") != null;
    cmd.add(cudaBuilt ? "cuda-built" : "no-cuda");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe finished");
    assertEquals(0, p.exitValue(), "probe failed:\n" + out + "\ncommand: " + cmd);
    assertEquals("OK", out.strip(), out);
  }
}
