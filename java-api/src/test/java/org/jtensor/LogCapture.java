package org.jtensor;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The messages a logger receives while open: {@code try (LogCapture logs = LogCapture.of("org.jtensor.leak")) { ... logs.messages() }}. */
public final class LogCapture extends Handler implements AutoCloseable {
  private final Logger logger;
  private final List<String> messages = new CopyOnWriteArrayList<>();

  private LogCapture(Logger logger) {
    this.logger = logger;
  }

  public static LogCapture of(String loggerName) {
    LogCapture c = new LogCapture(Logger.getLogger(loggerName));
    c.logger.addHandler(c);
    return c;
  }

  /** What was logged so far (a live list, safe to read while other threads log). */
  public List<String> messages() {
    return messages;
  }

  @Override
  public void publish(LogRecord r) {
    messages.add(r.getMessage());
  }

  @Override
  public void flush() {}

  /** Stops capturing. */
  @Override
  public void close() {
    logger.removeHandler(this);
  }
}
