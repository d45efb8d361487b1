package org.jtensor.examples.fashion;

import org.jtensor.Generator;
import org.jtensor.nn.Conv2d;
import org.jtensor.nn.Flatten;
import org.jtensor.nn.Linear;
import org.jtensor.nn.MaxPool2d;
import org.jtensor.nn.Module;
import org.jtensor.nn.ReLU;
import org.jtensor.nn.Sequential;

/** The main job's models (mlp, cnn, resnet), initialised from one seeded generator. */
final class Models {
  private Models() {}

  static Module create(String name, Generator g) {
    if (name.equals("resnet")) return ResNet.small(g);
    if (name.equals("cnn")) {
      return new Sequential(
          new Conv2d(1, 16, 3, 1, 1, g), new ReLU(), new MaxPool2d(2),    // 16 x 14 x 14
          new Conv2d(16, 32, 3, 1, 1, g), new ReLU(), new MaxPool2d(2),   // 32 x 7 x 7
          new Flatten(), new Linear(32 * 7 * 7, 128, g), new ReLU(), new Linear(128, 10, g));
    }
    return new Sequential(new Flatten(), new Linear(784, 256, g), new ReLU(), new Linear(256, 128, g), new ReLU(),
        new Linear(128, 10, g));
  }
}
