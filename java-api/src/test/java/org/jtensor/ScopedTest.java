package org.jtensor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Tests that create tensors freely: each test runs inside a scope that closes them all. */
abstract class ScopedTest {
  private TensorScope scope;

  @BeforeEach
  void openScope() {
    scope = TensorScope.open();
  }

  @AfterEach
  void closeScope() {
    scope.close();
  }
}
