package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** The accounting rule itself: a test that leaves bytes allocated fails, and the failure names it. */
class MemoryAccountingTest {
  /** Run only through the test kit below (surefire skips nested classes). */
  static class LeakyFixture {
    static Tensor leaked;

    @Test
    void forgetsToCloseATensor() {
      leaked = Tensor.zeros(1024);
    }

    @Test
    void closesEverything() {
      try (Tensor t = Tensor.ones(16)) {
        t.add_(1.0);
      }
    }
  }

  @Test
  void aLeakingTestFailsAndIsNamed() {
    List<Event> failed;
    try {
      failed = EngineTestKit.engine("junit-jupiter").configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
          .selectors(selectClass(LeakyFixture.class)).execute()
          .testEvents().failed().list();
    } finally {
      if (LeakyFixture.leaked != null) LeakyFixture.leaked.close();
    }
    assertTrue(failed.size() == 1, "exactly the leaking test fails: " + failed);
    String message = failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
        .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("");
    assertTrue(message.startsWith("forgetsToCloseATensor() left 4096 bytes allocated"), message);
  }
}
