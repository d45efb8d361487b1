package org.jtensor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Tests that create tensors freely: each test runs inside a scope that closes them all (public: tests in other packages extend it). */
public abstract class ScopedTest {
  private TensorScope scope;

  @BeforeEach
  protected void openScope() {
    scope = TensorScope.open();
  }

  @AfterEach
  protected void closeScope() {
    if (scope != null) scope.close();  // null: an extension skipped the test before it opened
  }
}
