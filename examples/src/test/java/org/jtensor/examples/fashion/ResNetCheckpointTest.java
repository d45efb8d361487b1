package org.jtensor.examples.fashion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.io.Tensors;
import org.jtensor.memory.Memory;
import org.jtensor.nn.Module;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 point 2: a state dict PyTorch 2.13 saved for the main job's ResNet (resources/resnet:
 * make_checkpoint.py writes it after three training steps, so every BatchNorm's running statistics
 * and num_batches_tracked have moved) loads into jtensor's ResNet unedited and strictly, and the
 * model then gives PyTorch's eval output for the same input.
 */
class ResNetCheckpointTest {
  @Test
  @SuppressWarnings("unchecked")
  void aPyTorchSavedStateDictLoadsUneditedAndGivesPyTorchsOutput() throws Exception {
    long before = Memory.memoryAllocated(Device.CPU);
    Path file = Path.of(ResNetCheckpointTest.class.getResource("/resnet/checkpoint.pt").toURI());
    Object loaded = Tensors.loadObject(file);
    try (Module model = ResNet.small(new Generator(0)); TensorScope s = TensorScope.open()) {
      Map<String, Object> saved = (Map<String, Object>) loaded;
      Map<String, Tensor> state = (Map<String, Tensor>) saved.get("state_dict");
      assertEquals(56, state.size(), "every parameter and buffer, num_batches_tracked included");
      Module.IncompatibleKeys keys = model.loadStateDict(state);
      assertEquals(0, keys.missingKeys().size() + keys.unexpectedKeys().size());
      assertEquals(3.0, model.namedBuffers().get("1.num_batches_tracked").item(), "PyTorch's count, loaded");
      model.eval();
      Tensor out = model.forward((Tensor) saved.get("input"));
      assertArrayEquals(((Tensor) saved.get("eval_output")).toDoubleArray(), out.toDoubleArray(), 1e-4);
    } finally {
      Tensors.closeAll(loaded);
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "every tensor closed");
  }
}
