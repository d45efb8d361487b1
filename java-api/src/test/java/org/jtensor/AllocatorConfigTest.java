package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** JT_ALLOC_CONF is read when the library loads: each case runs in a JVM of its own. */
class AllocatorConfigTest {
  /** The child JVM: reports what the first allocation did. */
  public static final class Probe {
    public static void main(String[] args) {
      try (Tensor t = Tensor.zeros(1)) {
        System.out.print("ok " + org.jtensor.memory.Memory.memoryLimit(Device.CPU));
      } catch (Throwable e) {
        Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
        System.out.print(cause.getClass().getName() + ": " + cause.getMessage());
      }
    }
  }

  private static String probe(String conf) throws IOException, InterruptedException {
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        "-Dorg.bytedeco.javacpp.cachedir=" + System.getProperty("org.bytedeco.javacpp.cachedir", "target/javacpp-cache"),
        Probe.class.getName());
    pb.environment().put("JT_ALLOC_CONF", conf);
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  @Test
  void aMalformedConfigFailsAtStartUpNamingTheKeyAndTheForm() throws Exception {
    String out = probe("bogus_key:1");
    assertTrue(out.startsWith("java.lang.IllegalArgumentException: JT_ALLOC_CONF='bogus_key:1': unknown key 'bogus_key'"), out);
    assertTrue(out.contains("memory_limit_mb (a non-negative integer, 0 for no limit)"), out);
    out = probe("memory_limit_mb:-5");
    assertTrue(out.contains("memory_limit_mb:-5 is not a non-negative integer"), out);
  }

  @Test
  void aValidConfigIsApplied() throws Exception {
    assertEquals("ok " + (64L << 20), probe("memory_limit_mb:64,huge_pages:0"));
  }
}
