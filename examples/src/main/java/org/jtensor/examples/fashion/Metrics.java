package org.jtensor.examples.fashion;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;

/** Per-epoch figures, written as metrics.csv and metrics.json, and drawn as curves.png (XChart). */
final class Metrics {
  record Epoch(int epoch, double trainLoss, double testLoss, double testAccuracy, double seconds, double imagesPerSecond) {}

  private final List<Epoch> epochs = new ArrayList<>();

  void add(Epoch e) {
    epochs.add(e);
  }

  List<Epoch> epochs() {
    return epochs;
  }

  void write(Path dir, String model, long peakBytes) throws IOException {
    Files.createDirectories(dir);
    StringBuilder csv = new StringBuilder("epoch,train_loss,test_loss,test_accuracy,seconds,images_per_second\n");
    StringBuilder json = new StringBuilder("{\n  \"model\": \"" + model + "\",\n  \"peak_allocated_bytes\": " + peakBytes
        + ",\n  \"epochs\": [\n");
    for (int i = 0; i < epochs.size(); i++) {
      Epoch e = epochs.get(i);
      csv.append(String.format(Locale.ROOT, "%d,%.6f,%.6f,%.6f,%.3f,%.1f%n", e.epoch(), e.trainLoss(), e.testLoss(),
          e.testAccuracy(), e.seconds(), e.imagesPerSecond()));
      json.append(String.format(Locale.ROOT, "    {\"epoch\": %d, \"train_loss\": %.6f, \"test_loss\": %.6f, "
          + "\"test_accuracy\": %.6f, \"seconds\": %.3f, \"images_per_second\": %.1f}%s%n", e.epoch(), e.trainLoss(),
          e.testLoss(), e.testAccuracy(), e.seconds(), e.imagesPerSecond(), i + 1 < epochs.size() ? "," : ""));
    }
    json.append("  ]\n}\n");
    Files.writeString(dir.resolve("metrics.csv"), csv);
    Files.writeString(dir.resolve("metrics.json"), json);
    plot(dir.resolve("curves.png"), model);
  }

  private void plot(Path png, String model) throws IOException {
    double[] x = new double[epochs.size()], train = new double[x.length], test = new double[x.length], acc = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      Epoch e = epochs.get(i);
      x[i] = e.epoch();
      train[i] = e.trainLoss();
      test[i] = e.testLoss();
      acc[i] = e.testAccuracy();
    }
    XYChart chart = new XYChartBuilder().width(800).height(500).title("Fashion-MNIST, " + model + " (jtensor)")
        .xAxisTitle("epoch").yAxisTitle("loss / accuracy").build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    chart.addSeries("train loss", x, train);
    chart.addSeries("test loss", x, test);
    chart.addSeries("test accuracy", x, acc);
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
