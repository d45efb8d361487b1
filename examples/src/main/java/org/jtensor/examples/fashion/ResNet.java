package org.jtensor.examples.fashion;

import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.nn.AdaptiveAvgPool2d;
import org.jtensor.nn.BatchNorm2d;
import org.jtensor.nn.Conv2d;
import org.jtensor.nn.Flatten;
import org.jtensor.nn.LayerOptions;
import org.jtensor.nn.Linear;
import org.jtensor.nn.Module;
import org.jtensor.nn.ReLU;
import org.jtensor.nn.Sequential;

/**
 * A small ResNet for 28×28 images (the main job's --model resnet): a 3×3 stem of 16 channels, then
 * torchvision's BasicBlock three times (16, 32 with stride 2, 64 with stride 2; a 1×1 convolution
 * and batch norm on the shortcut where the shape changes), global average pooling and a linear
 * classifier. State-dict names follow torchvision's (conv1, bn1, conv2, bn2, downsample.0/1).
 */
final class ResNet {
  private ResNet() {}

  static Module small(Generator g) {
    return new Sequential(
        conv3x3(1, 16, 1, g), new BatchNorm2d(16), new ReLU(),
        new BasicBlock(16, 16, 1, g), new BasicBlock(16, 32, 2, g), new BasicBlock(32, 64, 2, g),
        new AdaptiveAvgPool2d(1), new Flatten(), new Linear(64, 10, g));
  }

  static Conv2d conv3x3(long in, long out, long stride, Generator g) {
    return new Conv2d(in, out, 3, LayerOptions.of().stride(stride).padding(1).bias(false), g);
  }

  /** relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut(x)). */
  static final class BasicBlock extends Module {
    private final Conv2d conv1, conv2;
    private final BatchNorm2d bn1, bn2;
    private final Sequential downsample;  // null: the identity

    BasicBlock(long in, long out, long stride, Generator g) {
      try {
        conv1 = registerModule("conv1", conv3x3(in, out, stride, g));
        bn1 = registerModule("bn1", new BatchNorm2d(out));
        conv2 = registerModule("conv2", conv3x3(out, out, 1, g));
        bn2 = registerModule("bn2", new BatchNorm2d(out));
        downsample = stride == 1 && in == out ? null : registerModule("downsample",
            new Sequential(new Conv2d(in, out, 1, LayerOptions.of().stride(stride).bias(false), g), new BatchNorm2d(out)));
      } catch (RuntimeException | Error e) {
        abandon(e);
        throw e;
      }
    }

    @Override
    public Tensor forward(Tensor x) {
      Tensor h = bn2.forward(conv2.forward(bn1.forward(conv1.forward(x)).relu()));
      Tensor shortcut = downsample == null ? x : downsample.forward(x);
      return h.add(shortcut).relu();
    }
  }
}
