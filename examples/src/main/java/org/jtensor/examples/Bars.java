package org.jtensor.examples;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The main jobs' progress bars, printed to stderr at a width fixed once. With its default console
 * consumer the progressbar library asks JLine about the terminal as it refreshes, which runs
 * {@code tty} and {@code test -t} as child processes: measured with strace, 16 launches in a 4 s bar
 * and about 5 a second through a training run, each spawned from the whole JVM beside the training
 * and loader threads. A plain console consumer launches none.
 */
public final class Bars {
  private static final int WIDTH = width();

  private Bars() {}

  /** An ASCII bar of max steps that refreshes while the job runs, named task. */
  public static ProgressBarBuilder bar(String task, long max) {
    return new ProgressBarBuilder().setTaskName(task).setInitialMax(max).setStyle(ProgressBarStyle.ASCII)
        .continuousUpdate().setConsumer(new ConsoleProgressBarConsumer(System.err, WIDTH));
  }

  /** $COLUMNS when the shell exports it, else 100. */
  private static int width() {
    try {
      int columns = Integer.parseInt(System.getenv().getOrDefault("COLUMNS", ""));
      return columns >= 40 ? columns : 100;
    } catch (NumberFormatException e) {
      return 100;
    }
  }
}
