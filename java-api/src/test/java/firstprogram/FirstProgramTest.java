package firstprogram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jtensor.ExpectsLeakReports;
import org.jtensor.memory.LeakDetector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's walk-through is this package's FirstProgram.java, word for word (all but the
 * package line), and it runs: trained without scopes and then with them, saved and loaded, the
 * restored model classifies the held-out points. Not a ScopedTest: its first loop must run with no
 * scope open, as a new user's does; its garbage is collected before the memory accounting checks.
 */
class FirstProgramTest {
  private static final String BEGIN = "<!-- the walk-through: java-api/src/test/java/firstprogram/FirstProgram.java -->";

  @TempDir Path dir;

  @Test
  void theReadmeShowsThisProgramVerbatim() throws IOException {
    Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (!Files.exists(root.resolve("README.md")) || !Files.isDirectory(root.resolve("java-api"))) root = root.getParent();
    String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
    int marker = readme.indexOf(BEGIN);
    assertTrue(marker >= 0, "README.md marks the walk-through with " + BEGIN);
    int open = readme.indexOf("```java\n", marker) + "```java\n".length();
    String block = readme.substring(open, readme.indexOf("```\n", open));
    String source = Files.readString(root.resolve("java-api/src/test/java/firstprogram/FirstProgram.java"), StandardCharsets.UTF_8);
    String program = source.substring(source.indexOf("\n\n") + 2);  // less "package firstprogram;"
    assertEquals(program, block, "README.md's walk-through and FirstProgram.java differ: change both");
  }

  @Test
  @ExpectsLeakReports
  void theProgramTrainsSavesAndLoads() throws Exception {
    double accuracy = FirstProgram.run(dir);
    assertTrue(accuracy > 0.9, "the restored model's accuracy on held-out points: " + accuracy);
    assertTrue(Files.size(dir.resolve("model.pt")) > 0);
    LeakDetector.collect();  // the first loop's unclosed tensors, before the accounting's check
  }
}
