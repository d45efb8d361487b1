package org.jtensor.examples.gpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.jtensor.Device;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gpt.sh --autocast bf16 on the bundled text: the GPT trained with its forward pass under
 * Autocast (matrix products in bfloat16, parameters, gradients and AdamW in float32) reaches a
 * validation loss close to float32's after the same steps, well below where it started; nothing
 * stays allocated.
 */
class GptAutocastTest {
  @TempDir Path dir;

  private double train(String autocast) throws IOException {
    return Gpt.run(GptOptions.parse(new String[] {"--steps", "150", "--warmup", "10", "--eval-every", "150", "--eval-batches", "8",
        "--batch", "16", "--context", "32", "--embd", "32", "--heads", "2", "--layers", "1", "--sample", "0", "--autocast", autocast,
        "--out", dir.resolve(autocast).toString()}));
  }

  @Test
  void bfloat16TrainsToFloat32sLoss() throws IOException {
    long before = Memory.memoryAllocated(Device.CPU), leaks = LeakDetector.leaksReported();
    double f32 = train("off"), bf16 = train("bf16");
    System.out.printf("GptAutocastTest: validation loss after 150 steps: float32 %.4f, autocast bfloat16 %.4f%n", f32, bf16);
    assertTrue(f32 < 3.0, "float32 learned: " + f32);  // ln(vocabulary) ~ 4.4 at the start
    assertNotEquals(f32, bf16, "the autocast run computed in bfloat16");
    assertTrue(Math.abs(bf16 - f32) < 0.05 * f32, "autocast bfloat16 " + bf16 + " against float32 " + f32);
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "bytes still allocated");
    assertEquals(leaks, LeakDetector.leaksReported(), "leaks reported");
  }
}
